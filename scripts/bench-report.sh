#!/bin/bash
# bench-report.sh: the figures of the last make bench (build/bench/runs,
# written by bench.sh) as build/results/bench.txt, printed too, and as
# build/results/bench.tsv (one line per figure: kernel, workload,
# selector, metric, samples, median, min, max, then the value of each
# sample). A sample is one run of a workload: each round boots each
# kernel once, and each boot runs its workloads "repeats" times. Every
# figure is computed from the runs: the median over the samples, with
# min-max; the ratio to the baseline is the ratio of the medians. The
# figures of the make bench before are kept as bench.prev.*, and each
# median is checked against the other run's range.
# Can be run again on its own; exits 1 when a run failed.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

runs=$BUILD/bench$SFX/runs
meta=$runs/meta
[ -f "$meta" ] || die "no $meta: run make bench"
meta() { sed -n "s/^$1=//p" "$meta" | head -n1; }
run_id=$(meta run_id)
rounds=$(meta rounds)
reps=$(meta repeats)
reps=${reps:-1}
samples=$((rounds * reps))
clock=$(meta clock)
clock=${clock:-host}	# (a run before the clock was recorded)
jobs=$(meta jobs)
mkdir -p "$RESULTS"
txt=$RESULTS/bench.txt tsv=$RESULTS/bench.tsv
if [ -f "$tsv" ] && [ "$(sed -n 's/^# run_id=//p' "$tsv")" != "$run_id" ]; then
	mv "$tsv" "$RESULTS/bench.prev.tsv"
	[ ! -f "$txt" ] || mv "$txt" "$RESULTS/bench.prev.txt"
fi
prev=$RESULTS/bench.prev.tsv
fails=$runs/report-failures
: >"$fails"

# 1. One value per figure and sample, derived from the raw lines
#    "round=R rep=N kernel=K bench: WORKLOAD key=value ...": a line
#    lacking a value its figures need is a failed run, not a gap. Sample
#    (R - 1) * repeats + N.
values=$runs/values
shopt -s nullglob
files=("$runs"/[0-9]*-*)
[ ${#files[@]} -gt 0 ] || die "no figures in $runs"
awk -v fails="$fails" -v reps="$reps" '
function need(k) {
	if (!(k in v) || v[k] !~ /^[0-9]+$/) {
		printf "round %s %s: %s %s without %s\n", r, kern, w, sel, k >> fails
		bad = 1
	}
	return v[k]
}
function out(metric, val) { if (!bad) print kern, w, sel, metric, (r - 1) * reps + rep, val }
{
	delete v
	bad = 0
	for (i = 1; i <= NF; i++)
		if (split($i, kv, "=") == 2)
			v[kv[1]] = kv[2]
	r = v["round"]; rep = v["rep"] ? v["rep"] : 1; kern = v["kernel"]; w = $5
	sel = "-"
	if (w == "devmem_alloc" || w == "devmem_pool") {
		sel = "entries=" need("entries")
		out("alloc_free_ns", need("alloc_free_ns"))
		if (w == "devmem_alloc")
			out("worst_ns", need("worst_alloc_ns"))
		else
			out("worst_ns", need("worst_batch_ns"))
	} else if (w == "devmem_refill") {
		need("queues"); need("packets"); need("niov_size")
		out("served", need("served"))
		out("min_mib", need("min_mib"))
		out("max_mib", need("max_mib"))
		out("drops", need("drops"))
		out("queues", v["queues"])
		out("offered_mib", v["packets"] * v["niov_size"] / 1048576)
	} else if (w == "devmem_rx") {
		sel = "rx_page_size=" need("rx_page_size")
		b = need("bytes"); n = need("niovs"); s = need("stime_us")
		need("utime_us"); t = need("ms")
		if (!bad && (b == 0 || t == 0)) {
			printf "round %s %s: %s %s moved nothing\n", r, kern, w, sel >> fails
			bad = 1
		}
		if (!bad) {
			out("niovs_per_mib", n / (b / 1048576))
			out("sys_ms_per_gib", s / 1000 / (b / 1073741824))
			out("mib_s", b / 1048576 / (t / 1000))
		}
	} else if (w == "devmem_tx") {
		sel = "limit=" v["limit"]
		if (v["limit"] == "") need("limit")
		b = need("bytes"); k = need("skbs"); f = need("frags")
		m = need("max_skb_frags"); x = need("max_frag")
		s = need("stime_us"); ls = need("loop_stime_us")
		need("loop_utime_us"); sm = need("sendmsg_us"); t = need("ms")
		if (!bad && (b == 0 || k == 0 || t == 0)) {
			printf "round %s %s: %s %s moved nothing\n", r, kern, w, sel >> fails
			bad = 1
		}
		if (!bad) {
			g = b / 1073741824
			out("frags_per_pkt", f / k)
			out("max_skb_frags", m)
			out("max_frag", x)
			out("sendmsg_ms_per_gib", sm / 1000 / g)
			out("loop_sys_ms_per_gib", ls / 1000 / g)
			out("proc_sys_ms_per_gib", s / 1000 / g)
			out("mib_s", b / 1048576 / (t / 1000))
		}
	} else {
		printf "round %s %s: unknown workload %s\n", r, kern, w >> fails
	}
}' "${files[@]}" >"$values"

# 2. Per figure: samples, median, min, max and the value of each sample (-
#    for a sample without it)
{
	echo "# run_id=$run_id"
	echo "# clock=$clock"
	sort -k1,4 -k5,5n "$values" | awk -v rounds="$samples" '
	function flush(   i, j, t, n, med, s) {
		if (key == "") return
		n = 0
		for (i = 1; i <= rounds; i++)
			if (i in val) x[++n] = val[i]
		for (i = 2; i <= n; i++)	# insertion sort, n is small
			for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
				t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
			}
		med = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		s = ""
		for (i = 1; i <= rounds; i++)
			s = s (i > 1 ? "," : "") (i in val ? val[i] : "-")
		printf "%s\t%d\t%s\t%s\t%s\t%s\n", key, n, med, x[1], x[n], s
		delete val; delete x
	}
	{
		k = $1 "\t" $2 "\t" $3 "\t" $4
		if (k != key) { flush(); key = k }
		val[$5] = $6
	}
	END { flush() }'
} >"$tsv"

# fig KERNEL WORKLOAD SEL METRIC FIELD: one field of a figure (n, med,
# min, max, samples), empty when no run gave it
fig() {
	awk -F'\t' -v k="$1" -v w="$2" -v s="$3" -v m="$4" -v f="$5" '
		$1 == k && $2 == w && $3 == s && $4 == m {
			print (f == "n" ? $5 : f == "med" ? $6 : f == "min" ? $7 : \
			       f == "max" ? $8 : $9)
		}' "$tsv"
}
# show KERNEL WORKLOAD SEL METRIC FORMAT: "median [min-max]", with the
# number of samples when fewer than there should be; "-" without a run
show() {
	local n med lo hi
	n=$(fig "$1" "$2" "$3" "$4" n)
	[ -n "$n" ] || { echo -; return; }
	med=$(fig "$1" "$2" "$3" "$4" med)
	lo=$(fig "$1" "$2" "$3" "$4" min)
	hi=$(fig "$1" "$2" "$3" "$4" max)
	awk -v f="$5" -v med="$med" -v lo="$lo" -v hi="$hi" -v n="$n" -v r="$samples" \
		'BEGIN { printf f " [" f "-" f "]%s", med, lo, hi, (n < r ? " (n=" n ")" : "") }'
}
# ratio A B: A / B as "0.123x" (3 significant digits, no exponent), "-"
# if either is missing or B is 0
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "" || b == "" || b + 0 == 0) { print "-"; exit }
		r = a / b
		if (r == 0 || r >= 100) { printf "%.0fx\n", r; exit }
		d = 2 - int(log(r) / log(10) + (r < 1 ? -1 : 0))
		printf "%.*fx\n", d < 0 ? 0 : d, r }'
}
# pct A B: (A - B) / B as "+12%", "-" if either is missing or B is 0
pct() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%+.0f%%\n", (a - b) / b * 100 }'
}
# target WHAT OK: "WHAT: met" or "WHAT: MISSED" (OK an awk condition);
# "not measured" when a value is missing
verdict() {
	awk "BEGIN { print ($1) ? \"met\" : \"MISSED\" }"
}
# apart BASE_KERNEL SERIES_KERNEL WORKLOAD SEL SEL2 METRIC: "ranges apart"
# when the series' range lies wholly below the baseline's, else "ranges
# overlap"
apart() {
	local bmin smax
	bmin=$(fig "$1" "$3" "$4" "$6" min)
	smax=$(fig "$2" "$3" "$5" "$6" max)
	awk -v b="$bmin" -v s="$smax" 'BEGIN { print (s < b) ? "ranges apart" : "ranges overlap" }'
}

{
	printf 'make bench, %s: %s rounds, each booting %s; %s runs of each workload per boot\n' \
		"$(meta date)" "$rounds" "$(meta order)" "$reps"
	printf 'host: %s, %s cores; guest: %s vCPU, %s, accel %s, %s at a time\n' "$(meta host_cpu)" \
		"$(meta host_cores)" "$(meta vm_cpus)" "$(meta vm_mem)" "$(meta accel)" "${jobs:-1}"
	if [ "$clock" = host ]; then
		echo "clock: the host's; times and rates are the host CPU's"
	else
		echo "clock: QEMU's instruction counter (-icount shift=0): guest time is 1 ns per guest instruction,"
		echo "  so times and rates below are instruction counts, the same on any host, not hardware times"
	fi
	printf 'kernel %s (%s), built without debug info (configs/bench.config):\n' \
		"$(meta release)" "$(meta source)"
	sed -n 's/^kernel=/  /p' "$meta"
	echo "Figures: median [min-max] of the $samples runs (n= when fewer ran); ratios are of medians."

	printf '\ndevmem_alloc (KUnit devmem_bench: 1 GiB binding as N scatterlist entries, 4096 net_iovs held)\n'
	printf '  ns per net_iov allocated and freed; worst: single allocation / round of 64 through the page pool\n'
	printf '  %-30s %-7s %-28s %-28s %s\n' path entries "alloc-base (gen_pool)" "series (freelist)" series/base
	for w in devmem_alloc devmem_pool; do
		for m in alloc_free_ns worst_ns; do
			for e in 1 1024 262144; do
				case $w:$m in
				devmem_alloc:alloc_free_ns) p="net_devmem_alloc_dmabuf()" ;;
				devmem_alloc:worst_ns) p="  worst allocation" ;;
				devmem_pool:alloc_free_ns) p="page pool refill (NAPI path)" ;;
				devmem_pool:worst_ns) p="  worst round of 64" ;;
				esac
				printf '  %-30s %-7s %-28s %-28s %s\n' "$p" $e \
					"$(show alloc-base $w entries=$e $m %.0f)" \
					"$(show series $w entries=$e $m %.0f)" \
					"$(ratio "$(fig series $w entries=$e $m med)" "$(fig alloc-base $w entries=$e $m med)")"
			done
		done
	done
	for w in devmem_alloc devmem_pool; do
		s1=$(fig series $w entries=1 alloc_free_ns med)
		s262=$(fig series $w entries=262144 alloc_free_ns med)
		b262=$(fig alloc-base $w entries=262144 alloc_free_ns med)
		if [ -n "$s1" ] && [ -n "$s262" ] && [ -n "$b262" ]; then
			echo "  $w: series at 262144 vs 1 entry $(ratio "$s262" "$s1") (target <= 1.2x):" \
			     "$(verdict "$s262 / $s1 <= 1.2")"
			echo "  $w: gen_pool / freelist at 262144 entries $(ratio "$b262" "$s262")" \
			     "(target >= 10x): $(verdict "$b262 / $s262 >= 10"), $(apart alloc-base series $w entries=262144 entries=262144 alloc_free_ns)"
		else
			echo "  $w: targets not measured (figures missing)"
		fi
	done
	s=$(fig series devmem_pool entries=1024 alloc_free_ns med)
	a=$(fig series devmem_alloc entries=1024 alloc_free_ns med)
	echo "  series, 1024 entries: page pool path / single allocations $(ratio "$s" "$a")"

	q=$(fig series devmem_refill - queues med)
	printf '\ndevmem_refill (KUnit devmem_bench_refill: %s page pools share a 4 MiB binding of 64 KiB net_iovs,\n' "${q:-?}"
	printf '  %s MiB offered to each queue, its socket holding 8 buffers; refill-base: before the share fix)\n' \
		"$(fig series devmem_refill - offered_mib med)"
	printf '  %-26s %-24s %-24s %s\n' "" refill-base series series/base
	for m in served:"queues that received" min_mib:"least MiB a queue got" \
		 max_mib:"most MiB a queue got" drops:"packets dropped"; do
		printf '  %-26s %-24s %-24s %s\n' "${m#*:}" "$(show refill-base devmem_refill - "${m%%:*}" %.0f)" \
			"$(show series devmem_refill - "${m%%:*}" %.0f)" \
			"$(ratio "$(fig series devmem_refill - "${m%%:*}" med)" "$(fig refill-base devmem_refill - "${m%%:*}" med)")"
	done
	sv=$(fig series devmem_refill - served min)
	if [ -n "$sv" ] && [ -n "$q" ]; then
		echo "  every bound queue receives, in every run (target): $(verdict "$sv == $q")"
	else
		echo "  target not measured (figures missing)"
	fi

	printf '\ndevmem_rx (series; netdevsim, %s MiB per size into a 2 MiB hugepage udmabuf, verified;\n' "$(meta rx_mib)"
	printf '  receiver = ncdevmem, system CPU of the whole process; "vs 4K": ratio to rx-page-size 4096)\n'
	printf '  %-12s %-24s %-7s %-24s %-7s %s\n' rx-page-size net_iovs/MiB "vs 4K" "recv sys ms/GiB" "vs 4K" MiB/s
	for size in 4096 16384 65536; do
		printf '  %-12s %-24s %-7s %-24s %-7s %s\n' $size \
			"$(show series devmem_rx rx_page_size=$size niovs_per_mib %.1f)" \
			"$(ratio "$(fig series devmem_rx rx_page_size=$size niovs_per_mib med)" "$(fig series devmem_rx rx_page_size=4096 niovs_per_mib med)")" \
			"$(show series devmem_rx rx_page_size=$size sys_ms_per_gib %.0f)" \
			"$(ratio "$(fig series devmem_rx rx_page_size=$size sys_ms_per_gib med)" "$(fig series devmem_rx rx_page_size=4096 sys_ms_per_gib med)")" \
			"$(show series devmem_rx rx_page_size=$size mib_s %.1f)"
	done
	n4=$(fig series devmem_rx rx_page_size=4096 niovs_per_mib med)
	n64=$(fig series devmem_rx rx_page_size=65536 niovs_per_mib med)
	c4=$(fig series devmem_rx rx_page_size=4096 sys_ms_per_gib med)
	c64=$(fig series devmem_rx rx_page_size=65536 sys_ms_per_gib med)
	if [ -n "$n4" ] && [ -n "$n64" ] && [ -n "$c4" ] && [ -n "$c64" ]; then
		echo "  net_iovs per MiB, 4 KiB / 64 KiB: $(ratio "$n4" "$n64") (target 16x): $(verdict "$n4 / $n64 >= 15.9")"
		echo "  receiver system CPU per GiB, 64 KiB vs 4 KiB: $(pct "$c64" "$c4") (target: falls):" \
		     "$(verdict "$c64 < $c4"), $(apart series series devmem_rx rx_page_size=4096 rx_page_size=65536 sys_ms_per_gib)"
	else
		echo "  targets not measured (figures missing)"
	fi

	printf '\ndevmem_tx (netdevsim, %s MiB per run; sender = ncdevmem -r: payload written once into a 2 MiB\n' "$(meta tx_mib)"
	printf '  hugepage udmabuf, sent from it with no pipe; ms of CPU per GiB sent; send loop = first sendmsg()\n'
	printf '  to last completion; tx-base: PAGE_SIZE TX net_iovs, no frag limit knob)\n'
	printf '  %-7s %-10s %-20s %-14s %-9s %-22s %-7s %-22s %-7s %-22s %s\n' kernel "frag limit" \
		frags/packet "max frags" "max frag" "sendmsg()" "vs base" "sys, send loop" "vs base" \
		"sys, process" MiB/s
	for k in tx-base:none series:4096 series:32768 series:4294967295; do
		kern=${k%%:*} l=limit=${k#*:} label=series
		[ "$kern" = series ] || label=base
		printf '  %-7s %-10s %-20s %-14s %-9s %-22s %-7s %-22s %-7s %-22s %s\n' "$label" "${k#*:}" \
			"$(show "$kern" devmem_tx "$l" frags_per_pkt %.2f)" \
			"$(show "$kern" devmem_tx "$l" max_skb_frags %.0f | cut -d' ' -f1)" \
			"$(fig "$kern" devmem_tx "$l" max_frag max)" \
			"$(show "$kern" devmem_tx "$l" sendmsg_ms_per_gib %.0f)" \
			"$(pct "$(fig "$kern" devmem_tx "$l" sendmsg_ms_per_gib med)" "$(fig tx-base devmem_tx limit=none sendmsg_ms_per_gib med)")" \
			"$(show "$kern" devmem_tx "$l" loop_sys_ms_per_gib %.0f)" \
			"$(pct "$(fig "$kern" devmem_tx "$l" loop_sys_ms_per_gib med)" "$(fig tx-base devmem_tx limit=none loop_sys_ms_per_gib med)")" \
			"$(show "$kern" devmem_tx "$l" proc_sys_ms_per_gib %.0f)" \
			"$(show "$kern" devmem_tx "$l" mib_s %.1f)"
	done
	echo "  (max frags: median of the most frags in one packet; max frag: the largest frag in any run)"
	fu=$(fig series devmem_tx limit=4294967295 frags_per_pkt med)
	su=$(fig series devmem_tx limit=4294967295 sendmsg_ms_per_gib med)
	sb=$(fig tx-base devmem_tx limit=none sendmsg_ms_per_gib med)
	lu=$(fig series devmem_tx limit=4294967295 loop_sys_ms_per_gib med)
	lb=$(fig tx-base devmem_tx limit=none loop_sys_ms_per_gib med)
	if [ -n "$fu" ] && [ -n "$su" ] && [ -n "$sb" ] && [ -n "$lu" ] && [ -n "$lb" ]; then
		echo "  frags per 64 KiB packet, no limit: $(awk -v f="$fu" 'BEGIN { printf "%.2f", f }') (target <= 1.2): $(verdict "$fu <= 1.2")"
		echo "  sender CPU in sendmsg() per GiB, no limit vs base: $(pct "$su" "$sb") (target <= -40%):" \
		     "$(verdict "($su - $sb) / $sb <= -0.4"), $(apart tx-base series devmem_tx limit=none limit=4294967295 sendmsg_ms_per_gib)"
		echo "  sender system CPU per GiB (send loop), no limit vs base: $(pct "$lu" "$lb") (target <= -40%):" \
		     "$(verdict "($lu - $lb) / $lb <= -0.4"), $(apart tx-base series devmem_tx limit=none limit=4294967295 loop_sys_ms_per_gib)"
	else
		echo "  targets not measured (figures missing)"
	fi

	printf '\nper round (r1..r%s, | between rounds, the %s runs of a boot within; alternate boots of\n' "$rounds" "$reps"
	printf '  each baseline and the series, so host drift shows here)\n'
	for f in "alloc-base devmem_alloc entries=262144 alloc_free_ns" \
		 "series devmem_alloc entries=262144 alloc_free_ns" \
		 "alloc-base devmem_pool entries=262144 alloc_free_ns" \
		 "series devmem_pool entries=262144 alloc_free_ns" \
		 "series devmem_pool entries=1 alloc_free_ns" \
		 "refill-base devmem_refill - served" "series devmem_refill - served" \
		 "series devmem_rx rx_page_size=4096 sys_ms_per_gib" \
		 "series devmem_rx rx_page_size=65536 sys_ms_per_gib" \
		 "series devmem_rx rx_page_size=65536 mib_s" \
		 "tx-base devmem_tx limit=none sendmsg_ms_per_gib" \
		 "series devmem_tx limit=4294967295 sendmsg_ms_per_gib" \
		 "tx-base devmem_tx limit=none loop_sys_ms_per_gib" \
		 "series devmem_tx limit=4294967295 loop_sys_ms_per_gib" \
		 "tx-base devmem_tx limit=none mib_s" "series devmem_tx limit=4294967295 mib_s"; do
		# shellcheck disable=SC2086 # the four words of a figure
		set -- $f
		printf '  %-11s %-13s %-20s %-20s %s\n' "$1" "$2" "$3" "$4" \
			"$(fig "$1" "$2" "$3" "$4" rounds | awk -F, -v reps="$reps" '{ for (i = 1; i <= NF; i++)
				printf "%s%s", (i == 1 ? "" : (i - 1) % reps ? " " : " | "),
					($i == "-" ? "-" : sprintf($i >= 100 ? "%.0f" : "%.3g", $i)) }')"
	done

	printf '\nagainst the make bench before (build/results/bench.prev.txt):\n'
	pclock=host	# (a run before the clock line)
	[ ! -f "$prev" ] || pclock=$(sed -n 's/^# clock=//p' "$prev" | grep . || echo host)
	if [ -f "$prev" ] && [ "$pclock" != "$clock" ]; then
		echo "  not compared: its clock was $pclock, this run's $clock"
	elif [ -f "$prev" ]; then
		# both ways: this median in the other range, the other median in this range
		awk -F'\t' 'NR == FNR { if (!/^#/) { pm[$1 FS $2 FS $3 FS $4] = $6
					      plo[$1 FS $2 FS $3 FS $4] = $7
					      phi[$1 FS $2 FS $3 FS $4] = $8 }
				 next }
			/^#/ { next }
			{ k = $1 FS $2 FS $3 FS $4
			  if (!(k in pm)) { new++; next }
			  both++
			  if ($6 >= plo[k] && $6 <= phi[k] && pm[k] >= $7 && pm[k] <= $8) agree++
			  else { name = k
				 gsub(FS, " ", name)
				 diff = diff sprintf("    %s: %s [%s-%s], before %s [%s-%s]\n",
						     name, $6, $7, $8, pm[k], plo[k], phi[k]) } }
			END { printf "  %d of %d figures: each median within the other run'"'"'s range\n", agree, both
			      if (new) printf "  %d figures not in the run before\n", new
			      if (diff != "") printf "  outside:\n%s", diff }' "$prev" "$tsv"
	else
		echo "  none kept"
	fi

	printf '\nretried runs (failed once, passed when run again; the figure is of the second):\n'
	if [ -s "$runs/retries" ]; then
		sed 's/^/  /' "$runs/retries"
	else
		echo "  none"
	fi
	printf '\nfailed runs:\n'
	if [ -s "$runs/failures" ] || [ -s "$fails" ]; then
		cat "$runs/failures" "$fails" 2>/dev/null | sed 's/^/  /'
	else
		echo "  none"
	fi
	printf '\ndurations: %s\n' "$(meta durations)"
} >"$txt"

cat "$txt"
echo "(in ${txt#"$TOP"/}, figures in ${tsv#"$TOP"/})"
[ ! -s "$runs/failures" ] && [ ! -s "$fails" ]
