// What nvfp4-run says it did: a last line per entry saying where it ran and
// whether it was checked, a report of what --emit wrote, notes instead of
// silent fallbacks, and refusals of empty option values.
// RUN: rm -rf %t && mkdir -p %t

// --cpu: ran on the CPU reference only, and the last line says so.
// RUN: nvfp4-run %s --entry gemv --cpu | FileCheck %s --check-prefix=CPU
// CPU: nvfp4-run: @gemv: ran on the CPU reference only (--cpu): not checked
// CPU-NOT: {{.}}

// Without a GPU: compiled, run on the CPU reference, not checked.
// REQUIRES: ptxas
// RUN: %if no-gpu %{ nvfp4-run %s --entry gemv | FileCheck %s --check-prefix=NOGPU %}
// NOGPU: nvfp4-run: @gemv: compiled for sm_100a (1 kernel), ran on the CPU reference only (no GPU: no CUDA driver (libcuda.so.1 not found)): not checked
// NOGPU-NOT: {{.}}

// An op with no kernel for the target (a grouped MXFP4 GEMM's plain A
// scales need K % 128 on sm_100a): why it was not compiled is in the last
// line.
// RUN: %if no-gpu %{ nvfp4-run %s --entry grouped 2>/dev/null | FileCheck %s --check-prefix=NOKERNEL %}
// NOKERNEL: nvfp4-run: @grouped: not compiled for sm_100a ('nvfp4.grouped_matmul' op has plain MXFP4 scales{{.*}}), ran on the CPU reference only (no GPU: {{.*}}): not checked

// --emit says what it wrote, on stderr (the data may be on stdout).
// RUN: nvfp4-run %s --entry gemv --target sm_90a --emit=ptx -o %t/k.ptx 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: nvfp4-run: @gemv: wrote {{[0-9]+}} bytes of PTX for sm_90a to '{{.*}}k.ptx': 1 kernel: @gemv_kernel; plan #nvfp4.gemv_plan<
// RUN: nvfp4-run %s --entry gemv --target sm_90a --emit=mlir 2>%t/emit.err > /dev/null
// RUN: FileCheck %s --check-prefix=EMITMLIR < %t/emit.err
// EMITMLIR: nvfp4-run: @gemv: wrote {{[0-9]+}} bytes of MLIR for sm_90a to stdout: 1 kernel: @gemv_kernel
// A cubin is not written to a terminal, whatever -o names.
// RUN: script -qec "nvfp4-run %s --entry gemv --target sm_90a --emit=cubin -o /dev/tty" /dev/null > %t/tty.txt || true
// RUN: FileCheck %s --check-prefix=TTY < %t/tty.txt
// TTY: nvfp4-run: error: --emit=cubin writes binary data; refusing to write it to the terminal '/dev/tty'

// No ptxas under --cuda-path: a note, then PTX for the driver to assemble.
// RUN: nvfp4-run %s --entry gemv --cuda-path %t 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// NOPTXAS: nvfp4-run: note: no ptxas at '{{.*}}/bin/ptxas': compiling to PTX, which the CUDA driver assembles when it loads it
// RUN: not nvfp4-run %s --entry gemv --cuda-path %t --emit=cubin -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=NOPTXASCUBIN
// NOPTXASCUBIN: nvfp4-run: error: --emit=cubin needs ptxas, not found at '{{.*}}/bin/ptxas' (set --cuda-path)

// Empty values (a script's unset variable) are refused, not defaulted.
// RUN: not nvfp4-run %s --entry gemv --target= 2>&1 | FileCheck %s --check-prefix=EMPTYTARGET
// EMPTYTARGET: nvfp4-run: error: --target was given an empty value; name one, or leave the option out for its default
// RUN: not nvfp4-run %s --entry= --cpu 2>&1 | FileCheck %s --check-prefix=EMPTYENTRY
// EMPTYENTRY: nvfp4-run: error: --entry was given an empty value
// RUN: not nvfp4-run %s --entry=@ --cpu 2>&1 | FileCheck %s --check-prefix=ATONLY
// ATONLY: nvfp4-run: error: --entry was given '@' without a function name
// RUN: not nvfp4-run %s --entry gemv --emit= 2>&1 | FileCheck %s --check-prefix=EMPTYEMIT
// EMPTYEMIT: nvfp4-run: error: --emit was given an empty value
// RUN: not nvfp4-run %s --entry gemv --cuda-path= 2>&1 | FileCheck %s --check-prefix=EMPTYCUDA
// EMPTYCUDA: nvfp4-run: error: --cuda-path was given an empty value

// More host memory than the machine has free: refused with both figures
// (the hidden option stands in for a small machine).
// RUN: not nvfp4-run %s --entry gemv --cpu --host-memory-available=1000 2>&1 | FileCheck %s --check-prefix=HOSTMEM
// HOSTMEM: nvfp4-run: error: @gemv would need 19528 bytes of host memory for its arguments and their reference copies, but only 1000 bytes are available on this machine
// The process's address-space limit counts too: refused before anything
// is allocated, not an abort half way through.
// RUN: not bash -c "ulimit -v 3000000; nvfp4-run %s --entry wide --cpu" 2>&1 | FileCheck %s --check-prefix=ULIMIT
// ULIMIT: nvfp4-run: error: @wide would need 8594653184 bytes of host memory for its arguments and their reference copies, but the process's address-space limit (ulimit -v) leaves it only {{[0-9]+}} bytes

// Every output inf: the fingerprint does not read as zeros.
// RUN: %python %S/Inputs/npy_tool.py fill %t/a.npy '|u1' 256x32 119
// RUN: %python %S/Inputs/npy_tool.py fill %t/sa.npy '|u1' 256x4 126
// RUN: %python %S/Inputs/npy_tool.py fill %t/b.npy '|u1' 1x32 119
// RUN: %python %S/Inputs/npy_tool.py fill %t/sb.npy '|u1' 1x4 126
// RUN: nvfp4-run %s --entry gemv --cpu --inputs %t/a.npy,%t/sa.npy,%t/b.npy,%t/sb.npy 2>&1 | FileCheck %s --check-prefix=ALLINF
// ALLINF: output #4 memref<256x1xf16> no finite values (nonfinite=256 of 256)
func.func @gemv(%a: memref<256x64xf4E2M1FN>, %sfa: memref<256x4xf8E4M3FN>,
                %b: memref<1x64xf4E2M1FN>, %sfb: memref<1x4xf8E4M3FN>,
                %c: memref<256x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<256x64xf4E2M1FN>, memref<256x4xf8E4M3FN>, memref<1x64xf4E2M1FN>, memref<1x4xf8E4M3FN>) outs(%c : memref<256x1xf16>)
  return
}

func.func @wide(%a: memref<32768x64xf4E2M1FN>, %sfa: memref<32768x4xf8E4M3FN>,
                %b: memref<32768x64xf4E2M1FN>, %sfb: memref<32768x4xf8E4M3FN>,
                %c: memref<32768x32768xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<32768x64xf4E2M1FN>, memref<32768x4xf8E4M3FN>, memref<32768x64xf4E2M1FN>, memref<32768x4xf8E4M3FN>) outs(%c : memref<32768x32768xf32>)
  return
}

func.func @grouped(%a: memref<64x64xf4E2M1FN>, %sfa: memref<64x2xf8E8M0FNU>,
                   %b: memref<2x32x64xf4E2M1FN>, %sfb: memref<2x32x2xf8E8M0FNU>,
                   %offsets: memref<3xi32>, %c: memref<64x32xf32>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<64x64xf4E2M1FN>, memref<64x2xf8E8M0FNU>, memref<2x32x64xf4E2M1FN>, memref<2x32x2xf8E8M0FNU>, memref<3xi32>) outs(%c : memref<64x32xf32>) {size_hint = array<i64: 24, 40>}
  return
}
