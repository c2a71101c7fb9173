# -*- Python -*-
# lit configuration for nvfp4's regression tests.

import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "NVFP4"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "unit", "consumer.cpp"]
config.substitutions.append(("%python", sys.executable))
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nvfp4_obj_root, "test")

config.environment["FILECHECK_OPTS"] = "--enable-var-scope --dump-input=fail"
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = [
    ToolSubst("nvfp4-opt", unresolved="fatal"),
    ToolSubst("nvfp4-capi-test", unresolved="fatal"),
]
run = os.path.join(config.nvfp4_tools_dir, "nvfp4-run")
if os.path.exists(run):
    tools.append(ToolSubst("nvfp4-run", unresolved="fatal"))
    # Tests of what happens without a GPU run only where there is none.
    import subprocess
    probe = subprocess.run([run, "--probe-gpu"], capture_output=True)
    if probe.returncode != 0:
        config.available_features.add("no-gpu")
llvm_config.add_tool_substitutions(tools, [config.nvfp4_tools_dir, config.llvm_tools_dir])
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%nvfp4_obj_root", config.nvfp4_obj_root))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%nvfp4_src_root", config.nvfp4_src_root))
config.substitutions.append(("%examples", os.path.join(config.nvfp4_src_root, "examples")))

# ptxas (CUDA toolkit): assemble the PTX our pipeline emits.
ptxas = os.path.join(config.cuda_root, "bin", "ptxas")
if not os.path.exists(ptxas):
    ptxas = shutil.which("ptxas") or ""
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    config.substitutions.append(("%cuda_root", os.path.dirname(os.path.dirname(ptxas))))

# GPU integration tests are their own suite: test/Integration/GPU/lit.cfg.py.
