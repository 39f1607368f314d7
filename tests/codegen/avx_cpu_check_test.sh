#!/bin/sh
# A build compiled for AVX (GAUSS_ENABLE_AVX) refuses a CPU without AVX with a message and exit
# status 1 instead of SIGILL (core/src/cpu_check.cc). No such CPU is at hand, so:
#  1. the check's own code must run on any x86-64 CPU: its disassembly in libgauss.so holds no
#     VEX or EVEX instruction (their mnemonics start with "v": vmovsd, vzeroupper, ...);
#  2. with GAUSS_PRETEND_CPU_WITHOUT_AVX set, the check takes this CPU for one without AVX:
#     `gauss --help` must print the message and exit 1 before doing anything else;
#  3. without it, `gauss --help` runs (exit 0).
# usage: avx_cpu_check_test.sh GAUSS_PROGRAM LIBGAUSS_SO
set -u
gauss=$1
lib=$2
fail() { echo "FAIL: $*"; exit 1; }

check=_ZN12_GLOBAL__N_119RefuseCpuWithoutAvxEv
code=$(objdump -d --no-show-raw-insn --disassemble="$check" "$lib" | awk -F'\t' 'NF >= 2 { print $2 }')
[ -n "$code" ] || fail "no disassembly of $check in $lib"
echo "$code" | grep -q 'call' || fail "unexpected disassembly of $check: $code"
vex=$(echo "$code" | grep '^v' || true)
[ -z "$vex" ] || fail "the AVX check itself uses AVX instructions: $vex"

out=$(GAUSS_PRETEND_CPU_WITHOUT_AVX=1 "$gauss" --help 2>&1)
status=$?
[ "$status" -eq 1 ] || fail "without AVX: exit status $status, expected 1; output: $out"
echo "$out" | grep -q 'does not support AVX' || fail "without AVX: no message; output: $out"
[ "$(echo "$out" | wc -l)" -eq 1 ] || fail "without AVX: more than the message; output: $out"

"$gauss" --help >/dev/null 2>&1 || fail "with AVX: gauss --help failed (status $?)"
echo "OK: the AVX check has no AVX instruction, refuses a CPU without AVX, passes this one"
