#!/usr/bin/env bash
# Throwaway PostgreSQL + pgvector on 127.0.0.1 for chatmem's tests.
#
#   bash .ci/postgres.sh start   # install/build if needed, start; URL on last line
#   bash .ci/postgres.sh stop    # fast shutdown; fine if nothing is running
#   bash .ci/postgres.sh url     # print the connection URL
#   bash .ci/postgres.sh reset   # drop and recreate the test database (running
#                                # server); URL on last line. CI runs it after start:
#                                # a cluster left running or on disk from an earlier
#                                # run (benches write to its public schema) must not
#                                # hand the tests another run's tables
#
# Environment:
#   CHATMEM_PG_DIR            cluster directory (default /tmp/chatmem-pg)
#   CHATMEM_PG_PORT           TCP port          (default 55432)
#   CHATMEM_PG_MAJOR          PostgreSQL major  (default: 15 on bookworm, 17 on trixie)
#   CHATMEM_PG_DEBIAN_MIRROR  Debian mirror URI for pgvector's source, if the
#                             one in the machine's apt sources can't be found
#
# Progress goes to stderr so `URL=$(bash .ci/postgres.sh start)` captures
# only the URL.
#
# Why a source build: bookworm ships PostgreSQL 15 but no pgvector package
# for it, and the only network CI has is the Debian mirror. trixie carries
# pgvector's source package, which builds unchanged against PostgreSQL 15,
# so we fetch that through apt (signed, same mirror) and build it locally.
set -Eeuo pipefail

readonly PROG=postgres.sh
readonly DB_NAME=chatmem_test
readonly DB_USER=postgres
# Suite whose source package of pgvector we build; it is independent of the
# running release because bookworm has none.
readonly SOURCE_SUITE=trixie

trap 'echo "$PROG: error: command failed (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR

log() { echo "$PROG: $*" >&2; }
die() {
    echo "$PROG: error: $*" >&2
    exit 1
}

# ---------------------------------------------------------------- settings

PG_DIR=${CHATMEM_PG_DIR:-/tmp/chatmem-pg}
PG_PORT=${CHATMEM_PG_PORT:-55432}

[[ $PG_PORT =~ ^[0-9]{1,5}$ ]] || die "CHATMEM_PG_PORT must be a TCP port number, got '$PG_PORT'"
PG_PORT=$((10#$PG_PORT)) # base 10: bash reads a leading 0 as octal
((PG_PORT >= 1 && PG_PORT <= 65535)) || die "CHATMEM_PG_PORT out of range: $PG_PORT"
# Server commands run with cwd=/ (the postgres user may not be able to read
# the caller's cwd), so a relative directory would silently mean something else.
[[ $PG_DIR == /* ]] || PG_DIR="$PWD/$PG_DIR"
# The path ends up in pg_ctl's shell command line; keep it boring rather
# than attempt to quote for two levels of shell.
[[ $PG_DIR =~ ^[A-Za-z0-9._/+-]+$ ]] ||
    die "CHATMEM_PG_DIR may only contain letters, digits and ._/+- (got '$PG_DIR')"

os_codename() {
    local codename=""
    if [[ -r /etc/os-release ]]; then
        # shellcheck disable=SC1091
        codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    fi
    echo "$codename"
}

if [[ -n ${CHATMEM_PG_MAJOR:-} ]]; then
    PG_MAJOR=$CHATMEM_PG_MAJOR
else
    # The major version must be one the distro actually ships a server for.
    case "$(os_codename)" in
        bookworm) PG_MAJOR=15 ;;
        trixie) PG_MAJOR=17 ;;
        *) die "unknown Debian release '$(os_codename)'; set CHATMEM_PG_MAJOR" ;;
    esac
fi
[[ $PG_MAJOR =~ ^[0-9]+$ ]] || die "CHATMEM_PG_MAJOR must be a number, got '$PG_MAJOR'"
readonly PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin

# initdb and pg_ctl refuse to run as root, so as root the server runs as the
# Debian 'postgres' account; a non-root developer runs it as themselves.
if ((EUID == 0)); then
    SUDO=()
    as_pg() { (cd / && runuser -u postgres -- "$@"); }
else
    SUDO=(sudo)
    as_pg() { (cd / && "$@"); }
fi

url_for_port() { echo "postgresql://$DB_USER@127.0.0.1:$1/$DB_NAME"; }

# ------------------------------------------------------------ installation

APT_UPDATED=0
apt_update_once() {
    if ((EUID != 0)) && ! command -v sudo >/dev/null; then
        die "packages for PostgreSQL $PG_MAJOR + pgvector are missing and installing them needs root or sudo"
    fi
    if ((APT_UPDATED == 0)); then
        log "apt-get update"
        # A fresh machine's package lists may be missing or stale (pointing
        # at superseded security versions), so refresh before installing.
        "${SUDO[@]}" apt-get -q update >&2 || die "apt-get update failed"
        APT_UPDATED=1
    fi
}

pkg_installed() {
    [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true) == "install ok installed" ]]
}

# Install only what is missing: naming an installed package would also
# upgrade it, which is churn this script has no business causing.
apt_install_missing() {
    local missing=() pkg
    for pkg in "$@"; do
        pkg_installed "$pkg" || missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0
    apt_update_once
    log "apt-get install ${missing[*]}"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get -q -y --no-install-recommends install "${missing[@]}" >&2 ||
        die "apt-get install ${missing[*]} failed"
}

ensure_server() {
    [[ -x $PG_BIN/initdb && -x $PG_BIN/pg_ctl ]] && return 0
    apt_install_missing "postgresql-$PG_MAJOR"
    [[ -x $PG_BIN/initdb ]] || die "postgresql-$PG_MAJOR installed but $PG_BIN/initdb is missing"
}

vector_installed() {
    local sharedir pkglibdir
    sharedir=$("$PG_BIN/pg_config" --sharedir)
    pkglibdir=$("$PG_BIN/pg_config" --pkglibdir)
    [[ -f $sharedir/extension/vector.control && -f $pkglibdir/vector.so ]]
}

# Prints "URI<TAB>SIGNED-BY" for each apt source that serves Debian's main
# archive for this release. Third-party repositories signed by their own key
# (docker, nodesource, ...) are skipped so their mirror is never mistaken
# for Debian's.
debian_sources() {
    local codename=$1 f
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -r $f ]] || continue
        awk -v codename="$codename" '
            BEGIN { RS = ""; FS = "\n" }
            {
                delete v; last = ""; inline = 0
                for (i = 1; i <= NF; i++) {
                    line = $i
                    if (line ~ /^#/) continue
                    if (line ~ /^[ \t]/) { if (last == "signed-by") inline = 1; continue }
                    p = index(line, ":"); if (p == 0) continue
                    key = tolower(substr(line, 1, p - 1))
                    val = substr(line, p + 1); gsub(/^[ \t]+|[ \t]+$/, "", val)
                    v[key] = val; last = key
                }
                if (tolower(v["enabled"]) == "no") next
                # An inline key block is some repository'"'"'s own key, not a
                # keyring file we could recognise as Debian'"'"'s.
                if (inline) next
                if ((" " v["types"] " ") !~ / deb /) next
                if ((" " v["suites"] " ") !~ (" " codename " ")) next
                if ((" " v["components"] " ") !~ / main /) next
                sb = v["signed-by"]
                if (sb != "" && sb !~ /^\/.*debian-archive/) next
                split(v["uris"], u, /[ \t]+/)
                printf "%s\t%s\n", u[1], sb
            }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -r $f ]] || continue
        awk -v codename="$codename" '
            { sub(/#.*/, "") }
            $1 != "deb" { next }
            {
                sb = ""; i = 2
                if ($2 ~ /^\[/) {
                    for (; i <= NF; i++) {
                        opt = $i; gsub(/[\[\]]/, "", opt)
                        if (opt ~ /^signed-by=/) sb = substr(opt, 11)
                        if ($i ~ /\]$/) { i++; break }
                    }
                }
                uri = $i; suite = $(i + 1)
                if (suite != codename) next
                main = 0
                for (j = i + 2; j <= NF; j++) if ($j == "main") main = 1
                if (!main) next
                if (sb != "" && sb !~ /^\/.*debian-archive/) next
                printf "%s\t%s\n", uri, sb
            }' "$f"
    done
}

build_pgvector_from_source() {
    local codename mirror keyring line opts srcdir
    codename=$(os_codename)
    if [[ -n ${CHATMEM_PG_DEBIAN_MIRROR:-} ]]; then
        mirror=$CHATMEM_PG_DEBIAN_MIRROR
        keyring=""
    else
        line=$(debian_sources "$codename" | awk 'NR == 1')
        [[ -n $line ]] || die "no Debian '$codename' main entry found in /etc/apt/sources.list{,.d}; set CHATMEM_PG_DEBIAN_MIRROR"
        mirror=${line%%$'\t'*}
        keyring=${line#*$'\t'}
    fi

    apt_install_missing "postgresql-server-dev-$PG_MAJOR" build-essential dpkg-dev

    WORK_DIR=$(mktemp -d /tmp/chatmem-pgvector.XXXXXX)
    local aptroot=$WORK_DIR/apt
    mkdir -p "$aptroot/lists/partial" "$aptroot/cache/archives/partial" "$WORK_DIR/src"

    # Same mirror and trust as the machine's own entry. Snapshot mirrors
    # serve Release files whose Valid-Until has long passed.
    opts=""
    [[ -n $keyring ]] && opts="signed-by=$keyring"
    [[ $mirror == *snapshot.debian.org* ]] && opts="${opts:+$opts }check-valid-until=no"
    echo "deb-src ${opts:+[$opts] }$mirror $SOURCE_SUITE main" >"$aptroot/sources.list"
    log "pgvector source from: $(cat "$aptroot/sources.list")"

    # Everything apt writes goes under $aptroot: pointing only the source list
    # elsewhere would make apt prune the machine's real package lists and
    # rebuild its caches from a trixie-only view. deb-src only, so no trixie
    # binary can ever be installed from this. The private dirs are root's
    # mktemp dirs that the _apt sandbox user cannot write, hence User=root.
    local apt_opts=(
        -o "Dir::Etc::sourcelist=$aptroot/sources.list"
        -o "Dir::Etc::sourceparts=-"
        -o "Dir::State::Lists=$aptroot/lists"
        -o "Dir::Cache=$aptroot/cache"
        -o "APT::Sandbox::User=root"
        -o "APT::Get::List-Cleanup=0"
    )
    log "apt-get update ($SOURCE_SUITE deb-src, isolated)"
    "${SUDO[@]}" apt-get -q "${apt_opts[@]}" update >&2 ||
        die "could not fetch $SOURCE_SUITE source index from $mirror"
    log "apt-get source pgvector ($SOURCE_SUITE)"
    (cd "$WORK_DIR/src" && "${SUDO[@]}" apt-get -q "${apt_opts[@]}" source pgvector >&2) ||
        die "apt-get source pgvector ($SOURCE_SUITE) failed"

    srcdir=$(find "$WORK_DIR/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' -print -quit)
    [[ -n $srcdir ]] || die "apt-get source left no pgvector-* directory in $WORK_DIR/src"
    log "building $(basename "$srcdir") against PostgreSQL $PG_MAJOR"
    # OPTFLAGS="" drops pgvector's default -march=native, as Debian's own
    # package does, so the library doesn't depend on this CPU's extensions.
    make -C "$srcdir" -j "$(nproc)" OPTFLAGS="" PG_CONFIG="$PG_BIN/pg_config" >&2 ||
        die "building pgvector failed"
    "${SUDO[@]}" make -C "$srcdir" OPTFLAGS="" PG_CONFIG="$PG_BIN/pg_config" install >&2 ||
        die "installing pgvector failed"
}

ensure_pgvector() {
    vector_installed && return 0
    # Prefer a distro binary when the release has one (trixie does); this
    # is a no-op on bookworm, where we fall through to the source build.
    apt_update_once
    local candidate
    candidate=$(apt-cache policy "postgresql-$PG_MAJOR-pgvector" 2>/dev/null |
        awk '/Candidate:/ { print $2 }')
    if [[ -n $candidate && $candidate != "(none)" ]]; then
        apt_install_missing "postgresql-$PG_MAJOR-pgvector"
    else
        build_pgvector_from_source
    fi
    vector_installed || die "pgvector still not installed for PostgreSQL $PG_MAJOR after install"
}

# ----------------------------------------------------------------- cluster

running() {
    [[ -f $PG_DIR/PG_VERSION ]] && as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1
}

# The port of a running server comes from its lock file, so the URL is right
# even if CHATMEM_PG_PORT changed since it was started.
running_port() {
    sed -n 4p "$PG_DIR/postmaster.pid"
}

init_cluster() {
    if [[ -e $PG_DIR ]] && [[ -n $(ls -A "$PG_DIR") ]]; then
        die "$PG_DIR exists, is not empty and holds no PostgreSQL cluster; remove it or set CHATMEM_PG_DIR"
    fi
    mkdir -p "$PG_DIR"
    ((EUID == 0)) && chown postgres:postgres "$PG_DIR"
    as_pg test -w "$PG_DIR" ||
        die "$PG_DIR is not writable by the server's user (is a parent directory private?)"
    log "initdb $PG_DIR"
    # Trust auth and the C locale: a local test database that tests reach by
    # URL alone and that sorts the same everywhere. --no-sync: it's throwaway.
    as_pg "$PG_BIN/initdb" -D "$PG_DIR" -U "$DB_USER" --auth=trust \
        -E UTF8 --no-locale --no-sync >&2 || die "initdb failed"
    cat >>"$PG_DIR/postgresql.conf" <<'EOF'

# --- chatmem test cluster (.ci/postgres.sh) ---
# Loopback TCP only. No Unix socket: its default directory may not exist or
# belong to another cluster, and clients use the URL anyway.
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
# Durability buys nothing for a database rebuilt on every CI run.
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
}

psql_url() {
    # client_min_messages: "already exists, skipping" notices on every
    # restart are noise in CI logs.
    PGOPTIONS="-c client_min_messages=warning" \
        "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$1" "${@:2}"
}

# The test database and its pgvector extension (admin URL, database URL).
create_db() {
    psql_url "$1" -c "CREATE DATABASE $DB_NAME" || die "CREATE DATABASE $DB_NAME failed"
    create_extension "$2"
}

create_extension() {
    # Creating the extension loads vector.so, and cmd_start's query exercises it,
    # so a broken build fails here rather than in the first test.
    psql_url "$1" -c "CREATE EXTENSION IF NOT EXISTS vector" ||
        die "CREATE EXTENSION vector failed in $DB_NAME"
}

cmd_start() {
    ensure_server
    if running; then
        log "already running in $PG_DIR"
        url_for_port "$(running_port)"
        return 0
    fi
    ensure_pgvector

    if [[ ! -f $PG_DIR/PG_VERSION ]]; then
        init_cluster
    fi
    local have
    have=$(cat "$PG_DIR/PG_VERSION")
    [[ $have == "$PG_MAJOR" ]] ||
        die "$PG_DIR holds a PostgreSQL $have cluster, not $PG_MAJOR; remove it or set CHATMEM_PG_DIR"

    log "starting PostgreSQL $PG_MAJOR on 127.0.0.1:$PG_PORT"
    # The log is appended to across runs; on failure show only this attempt.
    local log_file=$PG_DIR/server.log log_size=0
    [[ -f $log_file ]] && log_size=$(stat -c %s "$log_file")
    if ! as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR" -l "$log_file" -w -t 60 \
        -o "-p $PG_PORT" start >&2; then
        tail -c "+$((log_size + 1))" "$log_file" >&2 || true
        die "PostgreSQL did not start (log above, full log in $PG_DIR/server.log; is port $PG_PORT in use?)"
    fi

    local admin_url url
    admin_url="postgresql://$DB_USER@127.0.0.1:$PG_PORT/postgres"
    url=$(url_for_port "$PG_PORT")
    if [[ -z $(psql_url "$admin_url" -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'") ]]; then
        create_db "$admin_url" "$url"
    else
        create_extension "$url"
    fi
    local version
    version=$(psql_url "$url" -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    psql_url "$url" -c "SELECT '[1,2,3]'::vector <=> '[1,2,4]'::vector" >/dev/null ||
        die "pgvector is installed but does not work"
    log "ready: PostgreSQL $PG_MAJOR with pgvector $version"
    echo "$url"
}

cmd_stop() {
    if [[ ! -f $PG_DIR/PG_VERSION ]]; then
        log "no cluster in $PG_DIR; nothing to stop"
        return 0
    fi
    if ! running; then
        log "not running ($PG_DIR)"
        return 0
    fi
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR" -m fast -w -t 60 stop >&2 ||
        die "pg_ctl stop failed for $PG_DIR"
}

cmd_reset() {
    running || die "no server running in $PG_DIR; run: bash .ci/postgres.sh start"
    local port admin_url url
    port=$(running_port)
    admin_url="postgresql://$DB_USER@127.0.0.1:$port/postgres"
    url=$(url_for_port "$port")
    log "recreating database $DB_NAME"
    psql_url "$admin_url" -c "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" ||
        die "DROP DATABASE $DB_NAME failed"
    create_db "$admin_url" "$url"
    echo "$url"
}

cmd_url() {
    if [[ -x $PG_BIN/pg_ctl ]] && running; then
        url_for_port "$(running_port)"
    else
        url_for_port "$PG_PORT"
    fi
}

WORK_DIR=""
cleanup() {
    if [[ -n $WORK_DIR && -d $WORK_DIR ]]; then
        "${SUDO[@]}" rm -rf "$WORK_DIR"
    fi
}
trap cleanup EXIT

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    url) cmd_url ;;
    reset) cmd_reset ;;
    *)
        echo "usage: $0 {start|stop|url|reset}" >&2
        exit 2
        ;;
esac
