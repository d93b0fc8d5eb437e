# SPDX-License-Identifier: GPL-2.0-only
# bash completion for dtltop: options, --sim keys, --format/--source values,
# field names for -s (asked of dtltop itself, so they match the binary).
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
		for k in vcpus ent pool load other busy slice faults poll smt clock; do
			keys+="--sim=$head$k= "
		done
		[[ ${have##*,} == clock=* ]] && keys="--sim=${head}clock=wall --sim=${head}clock=virtual"
		COMPREPLY=($(compgen -W "$keys" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return 0 ;;
	--format=*) COMPREPLY=($(compgen -W "--format=text --format=csv" -- "$cur")); return 0 ;;
	--source=*) COMPREPLY=($(compgen -W "--source=auto --source=sim --source=debugfs --source=perf" -- "$cur")); return 0 ;;
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
	--format) COMPREPLY=($(compgen -W "text csv" -- "$cur")); return 0 ;;
	--source) COMPREPLY=($(compgen -W "auto sim debugfs perf" -- "$cur")); return 0 ;;
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
