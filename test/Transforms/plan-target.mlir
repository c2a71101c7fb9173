// RUN: not nvfp4-opt %s -nvfp4-plan=target=sm_80 2>&1 | FileCheck %s
// CHECK: error: nvfp4-plan: unsupported target 'sm_80'; supported targets: sm_100a, sm_90a
func.func @f() {
  return
}
