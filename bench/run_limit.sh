# Sourced by the bench scripts: run_limited CMD ARGS... runs one nvfp4-run
# (or any command) under a wall-clock limit, NVFP4_RUN_TIMEOUT seconds
# (default 300), so that a kernel that hangs costs one run, not the whole
# device lease (timeout's exit status 124 then reads as a failure).
run_limited() {
  timeout "${NVFP4_RUN_TIMEOUT:-300}" "$@"
}
