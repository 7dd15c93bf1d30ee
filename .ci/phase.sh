# Sourced by .ci/run and .ci/test: `phase WORDS` starts a phase of the log with the time since
# CI (or the test script, run alone) began, so a slow phase shows in any run's log.
: "${SWAPBOARD_CI_START:=$(date +%s)}"
export SWAPBOARD_CI_START
phase() {
    local elapsed=$(($(date +%s) - SWAPBOARD_CI_START))
    printf '== [%dm%02ds] %s\n' $((elapsed / 60)) $((elapsed % 60)) "$*"
}
