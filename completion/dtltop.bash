# SPDX-License-Identifier: GPL-2.0-only
# bash completion for dtltop: options, --sim keys, --format/--source values,
# field names for -s, all asked of dtltop's own tables so they match the binary.

# The values an option lists in --list-options ("--format=text|csv"): "text csv".
_dtltop_values()
{
	dtltop --list-options 2>/dev/null | cut -f1 | grep -oE -- "--$1[= ][^ ]*\|[^ ]*" |
		sed 's/^[^= ]*[= ]//' | tr '|' ' '
}

_dtltop()
{
	local cur prev opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	# the option table itself, so the completion never lags the binary
	opts=$(dtltop --list-options 2>/dev/null | cut -f1 | grep -oE -- '(^| )-[A-Za-z]|--[a-z-]+' | tr -d ' ')
	COMPREPLY=()
	case $cur in
	--sim=*)
		local have=${cur#--sim=} head=""
		[[ $have == *,* ]] && head=${have%,*},
		local k keys=""
		local sim
		sim=$(dtltop --sim=help 2>/dev/null)
		for k in $(awk 'NF == 0 { exit } { print $1 }' <<<"$sim"); do
			keys+="--sim=$head$k= "
		done
		# a key with a choice of words ("clock wall|virtual"): the words
		local key=${have##*,} words
		key=${key%%=*}
		words=$(awk -v k="$key" '$1 == k && $2 ~ /^[a-z]+\|/ { gsub(/\|/, " ", $2); print $2 }' <<<"$sim")
		if [[ ${have##*,} == *=* && -n $words ]]; then
			keys=""
			for k in $words; do keys+="--sim=$head$key=$k "; done
		fi
		COMPREPLY=($(compgen -W "$keys" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return 0 ;;
	--format=* | --export-format=* | --source=*)
		local o=${cur%%=*}
		COMPREPLY=($(compgen -W "$(_dtltop_values "${o#--}" | sed "s/[^ ]*/$o=&/g")" -- "$cur"))
		return 0 ;;
	--sort=*)
		COMPREPLY=($(compgen -W "$(dtltop --list-fields 2>/dev/null | awk '{ print "--sort=" $1 }')" -- "$cur"))
		return 0 ;;
	esac
	case $prev in
	-s | --sort)
		COMPREPLY=($(compgen -W "$(dtltop --list-fields 2>/dev/null | awk '$1 != "timestamp" { print $1 }')" -- "${cur#[-+]}"))
		[[ $cur == [-+]* ]] && COMPREPLY=("${COMPREPLY[@]/#/${cur:0:1}}")
		return 0 ;;
	-e | --events)
		COMPREPLY=($(compgen -W "all cede preempt fault cede,preempt cede,fault preempt,fault" -- "$cur"))
		return 0 ;;
	--format | --export-format | --source)
		COMPREPLY=($(compgen -W "$(_dtltop_values "${prev#--}")" -- "$cur")); return 0 ;;
	--speed) COMPREPLY=($(compgen -W "max 1 2 10 100" -- "$cur")); return 0 ;;
	-r | --read | -w | --write | -o | --output)
		COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
	--root) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
	-n | --iterations | -d | --delay | -C | --cpu | --seed) return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	fi
	return 0
}
complete -F _dtltop dtltop
