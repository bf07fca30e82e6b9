#!/bin/bash
# compare-results.sh A B: two check.sh summaries (build/results*/summary)
# side by side, case by case. Prints every case whose result differs,
# then how many agree and how many are in one run only; exits non-zero
# when a case present in both differs. The reasons after "#" are shown,
# not compared.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

a=$1 b=$2
for f in "$a" "$b"; do [ -s "$f" ] || die "no results in $f"; done
awk -v A="${a#"$TOP"/}" -v B="${b#"$TOP"/}" '
function key(line,    k) { k = line; sub(/^[A-Z]+ /, "", k); sub(/ # .*/, "", k); return k }
function why(line,    w) { w = ""; if (line ~ / # /) { w = line; sub(/^[^#]* # /, "", w) }; return w }
FNR == 1 { file++ }
{
	k = key($0)
	if (file == 1) { ra[k] = $1; wa[k] = why($0); order[++n] = k }
	else { rb[k] = $1; wb[k] = why($0); if (!(k in ra)) onlyb[++nb] = k }
}
END {
	for (i = 1; i <= n; i++) {
		k = order[i]
		if (!(k in rb)) { onlya++; continue }
		if (ra[k] == rb[k]) { same++; continue }
		diff++
		printf "DIFF %s: %s %s%s, %s %s%s\n", k, A, ra[k], wa[k] != "" ? " (" wa[k] ")" : "",
		       B, rb[k], wb[k] != "" ? " (" wb[k] ")" : ""
	}
	printf "%d cases agree, %d differ; %d only in %s, %d only in %s\n",
	       same, diff, onlya, A, nb, B
	exit diff > 0
}' "$a" "$b" || exit 1
