# bash completion for perfcast (installed by `make install` into
# $(PREFIX)/share/bash-completion/completions/perfcast).
# Completes commands, options, formats, and campaign and experiment names
# read from the archive (`perfcast list`).

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

_perfcast()
{
    local cur prev cmd archive
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands="list check build fit predict advise plan import"
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    case $prev in
        --archive | --out | --templates)
            COMPREPLY=($(compgen -d -- "$cur"))
            return
            ;;
        --format)
            case $cmd in
                fit) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
                predict | advise) COMPREPLY=($(compgen -W "text csv json" -- "$cur")) ;;
                plan) COMPREPLY=($(compgen -W "table csv mpirun slurm" -- "$cur")) ;;
            esac
            return
            ;;
        --model)
            COMPREPLY=($(compgen -W "strip block multicluster" -- "$cur"))
            return
            ;;
    esac
    if [[ $cur == -* ]]; then
        local opts="--help"
        case $cmd in
            list | check) opts="--archive --help" ;;
            build) opts="--archive --out --jobs --verify --templates --strict --quiet --up-to-date --help" ;;
            fit | predict) opts="--archive --format --help" ;;
            advise) opts="--free --size --maximize-size --deadline --budget --code --campaign --archive --format --help" ;;
            plan) opts="--model --target --np --grid --rows --cluster --np0 --nps --levels --reps --format --code --campaign --archive --mgbench --extra --side --time --partition --help" ;;
            import) opts="--campaign --archive --cluster --map --response --help" ;;
        esac
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    archive=$(_perfcast_archive)
    # Positional words so far (options and their values left out).
    local words=() i
    for ((i = 2; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --archive | --format) ((i++)) ;;
            -*) ;;
            *) words+=("${COMP_WORDS[i]}") ;;
        esac
    done
    case $cmd in
        list | fit | predict)
            if ((${#words[@]} == 0)); then
                COMPREPLY=($(compgen -W "$(perfcast list --archive "$archive" 2>/dev/null |
                    awk '/^campaigns/ {c = 1; next} /^clusters/ {c = 0} c {print $1}')" -- "$cur"))
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
