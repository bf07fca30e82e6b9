#!/bin/bash
# apt-archive.sh [FILE...]: print the URI of the main Debian archive that
# this machine's apt sources name (default: the files apt itself reads),
# for fetch-base.sh to add suites from it. That is the first "deb" entry
# with the release's own suite ($CODENAME, not -security or -updates) and
# component main; entries signed by another key than Debian's (third-party
# repos) only when nothing else has it. The URI is printed as written:
# apt understands mirror+file:, mirror+http: and friends by itself.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
STEP=apt-archive	# no "==> step" line: stdout is the URI

[ -n "$CODENAME" ] || die "no VERSION_CODENAME in /etc/os-release"
if [ $# -eq 0 ]; then
	# What apt reads, in its order: sources.list, then sources.list.d/
	# sorted, *.list (one-line) and *.sources (deb822) only.
	set -- /etc/apt/sources.list
	for f in /etc/apt/sources.list.d/*; do
		case $f in *.list|*.sources) set -- "$@" "$f" ;; esac
	done
fi
files=()
for f in "$@"; do [ -f "$f" ] && files+=("$f"); done

uri=
[ ${#files[@]} -eq 0 ] || uri=$(awk -v codename="$CODENAME" '
function has(list, word) { return index(" " list " ", " " word " ") > 0 }
function consider(types, uris, suites, comps, key,   n, i, u, rank) {
	gsub(/[ \t]+/, " ", types); gsub(/[ \t]+/, " ", suites); gsub(/[ \t]+/, " ", comps)
	if (!has(types, "deb") || !has(suites, codename) || !has(comps, "main"))
		return
	rank = (key == "" || key ~ /debian-archive-keyring/) ? 0 : 1
	n = split(uris, u, " ")
	for (i = 1; i <= n; i++)
		if (!(rank in best) && u[i] !~ /^cdrom:/)
			best[rank] = u[i]
}
# deb822 (*.sources): stanzas separated by blank lines, "Field: value",
# continuation lines start with a blank, comment lines with "#".
function stanza_end() {
	en = tolower(f["enabled"]); gsub(/[ \t]/, "", en)
	if (en !~ /^(no|false|0)$/)
		consider(f["types"], f["uris"], f["suites"], f["components"], f["signed-by"])
	split("", f)
	field = ""
}
FNR == 1 { if (deb822) stanza_end(); deb822 = FILENAME ~ /\.sources$/ }
{ sub(/\r$/, "") }
deb822 && /^[ \t]*#/ { next }
deb822 && /^[ \t]*$/ { stanza_end(); next }
deb822 && /^[ \t]/ { if (field != "") f[field] = f[field] " " $0; next }
deb822 {
	i = index($0, ":")
	if (!i) next
	field = tolower(substr($0, 1, i - 1))
	f[field] = substr($0, i + 1)
	next
}
# One-line (sources.list, *.list): deb [options] URI suite component...
{
	sub(/#.*/, "")
	opts = ""
	if (match($0, /\[[^]]*\]/)) {
		opts = substr($0, RSTART, RLENGTH)
		$0 = substr($0, 1, RSTART - 1) " " substr($0, RSTART + RLENGTH)
	}
	if (NF < 4) next
	comps = ""
	for (i = 4; i <= NF; i++) comps = comps " " $i
	key = match(opts, /signed-by=[^] \t]*/) ? substr(opts, RSTART, RLENGTH) : ""
	consider($1, $2, $3, comps, key)
}
END {
	if (deb822) stanza_end()
	if (0 in best) print best[0]
	else if (1 in best) print best[1]
}' "${files[@]}")

[ -n "$uri" ] || die "no Debian archive entry for $CODENAME in $*:" \
	"looked for a 'deb' entry with suite '$CODENAME' and component main," \
	"as a one-line 'deb [options] URI $CODENAME main' (sources.list, *.list)" \
	"or a deb822 stanza 'Types: deb / URIs: ... / Suites: $CODENAME ...' (*.sources)"
echo "$uri"
