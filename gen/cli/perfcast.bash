# bash completion for perfcast (installed by `make install` into
# $(PREFIX)/share/bash-completion/completions/perfcast).
# Completes every command (list check build report fit predict advise plan
# compare import), each command's options, formats, models, and campaign,
# experiment and cluster names read from the archive (`perfcast list`).
# tests/test_completion.c checks that every option of every command's
# --help is offered here.

_perfcast_archive()
{
    local i
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        if [[ ${COMP_WORDS[i]} == --archive ]]; then
            printf '%s\n' "${COMP_WORDS[i + 1]}"
            return
        fi
    done
    printf 'archive\n'
}

# The names listed under "campaigns" or "clusters" (what) by perfcast list.
_perfcast_names()
{
    perfcast list --archive "$2" 2>/dev/null |
        awk -v what="$1" '/^[a-z]+.*:$/ {c = ($1 == what || $1 == what ":"); next} c {print $1}'
}

_perfcast()
{
    local cur prev cmd archive
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands="list check build report fit predict advise plan compare import"
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    archive=$(_perfcast_archive)
    case $prev in
        --archive | --out | --templates | --previous)
            if [[ $cmd == report && $prev == --out ]]; then # a file, not a folder
                COMPREPLY=($(compgen -f -X '!*.pdf' -- "$cur") $(compgen -d -- "$cur"))
            else
                COMPREPLY=($(compgen -d -- "$cur"))
            fi
            return
            ;;
        --mgbench)
            COMPREPLY=($(compgen -f -- "$cur"))
            return
            ;;
        --format)
            case $cmd in
                fit) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
                predict | advise) COMPREPLY=($(compgen -W "text csv json" -- "$cur")) ;;
                compare) COMPREPLY=($(compgen -W "text csv" -- "$cur")) ;;
                plan) COMPREPLY=($(compgen -W "table csv mpirun slurm pbs" -- "$cur")) ;;
            esac
            return
            ;;
        --model)
            COMPREPLY=($(compgen -W "strip block multicluster" -- "$cur"))
            return
            ;;
        --launcher)
            COMPREPLY=($(compgen -W "srun mpirun" -- "$cur"))
            return
            ;;
        --side)
            COMPREPLY=($(compgen -W "A B" -- "$cur"))
            return
            ;;
        --time-unit)
            COMPREPLY=($(compgen -W "ns us ms s min h" -- "$cur"))
            return
            ;;
        --scaling)
            COMPREPLY=($(compgen -W "strong weak" -- "$cur"))
            return
            ;;
        --campaign)
            COMPREPLY=($(compgen -W "$(_perfcast_names campaigns "$archive")" -- "$cur"))
            return
            ;;
        --cluster)
            # plan's multicluster takes CA,CB: complete the name after the comma.
            local head=${cur%,*} names
            names=$(_perfcast_names clusters "$archive")
            if [[ $cur == *,* ]]; then
                COMPREPLY=($(compgen -P "$head," -W "$names" -- "${cur##*,}"))
            else
                COMPREPLY=($(compgen -W "$names" -- "$cur"))
            fi
            return
            ;;
        --free)
            # advise --free C:N,...: a cluster name, then its count.
            COMPREPLY=($(compgen -S : -W "$(_perfcast_names clusters "$archive")" -- "${cur##*,}"))
            [[ $cur == *,* ]] && COMPREPLY=("${COMPREPLY[@]/#/${cur%,*},}")
            compopt -o nospace 2>/dev/null
            return
            ;;
    esac
    if [[ $cur == -* ]]; then
        local opts="--help"
        case $cmd in
            list | check) opts="--archive --help" ;;
            build) opts="--archive --out --templates --verify --jobs --base-url --strict --quiet --up-to-date --refresh-pool --previous --help" ;;
            report) opts="--archive --out --cluster --help" ;;
            fit | predict | compare) opts="--archive --format --help" ;;
            advise) opts="--free --size --maximize-size --deadline --budget --code --campaign --bytes-per-point --quantum --archive --format --help" ;;
            plan) opts="--model --target --np --grid --rows --cluster --np0 --nps --levels --reps --format --code --campaign --archive --mgbench --extra --side --cores --ppn --time --margin --bytes-per-point --launcher --mpi --partition --account --modules --output --job-name --help" ;;
            import) opts="--campaign --archive --cluster --map --response --delimiter --decimal-comma --time-unit --scaling --allow-truncated --help" ;;
        esac
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    # Positional words so far (options and their values left out; flags
    # take no value).
    local words=() i
    for ((i = 2; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --help | -h | --verify | --strict | --quiet | --up-to-date | --refresh-pool | --maximize-size | \
                --decimal-comma | --allow-truncated) ;;
            -*) ((i++)) ;;
            *) words+=("${COMP_WORDS[i]}") ;;
        esac
    done
    case $cmd in
        list | fit | predict | compare)
            if ((${#words[@]} == 0)); then
                COMPREPLY=($(compgen -W "$(_perfcast_names campaigns "$archive")" -- "$cur"))
            elif ((${#words[@]} == 1)) && [[ $cmd != list ]]; then
                COMPREPLY=($(compgen -W "$(perfcast list --archive "$archive" "${words[0]}" 2>/dev/null |
                    cut -f1)" -- "$cur"))
            fi
            ;;
        import)
            if ((${#words[@]} == 0)); then
                COMPREPLY=($(compgen -W "extrap reframe sacct jube csv" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            ;;
    esac
}
complete -F _perfcast perfcast
