#!/usr/bin/env bash
# CI: the README's "Running on MySQL" commands, exactly as written, on a fresh database of the local
# MariaDB: the example URL and the placeholders are replaced, nothing else. Then the server started by
# the README's command is probed, signed in to, stopped, and the database dropped.
# (The install step of .ci/run has just run `npm ci`, so `npm ci && ` is not repeated.)
set -euo pipefail
cd "$(dirname "$0")/.."

server_url="${CI_MYSQL_SERVER:-mysql://root@127.0.0.1:3306}"
database="readme_$$_$(date +%s)"
url="$server_url/$database"
secret="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')ci-readme-secret"
password="readme-admin-$(head -c 6 /dev/urandom | base64 | tr -d '/+=')"
export PORT="${CI_README_PORT:-3918}" HOST=127.0.0.1 LOG_FORMAT=json
log="$(mktemp)"
server_pid=""

cleanup() {
  if [ -n "$server_pid" ]; then kill -TERM -- "-$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  mysql --protocol=tcp -h127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS \`$database\`" || true
  rm -f "$log"
}
trap cleanup EXIT

# The sh block of the README's "Running on MySQL" section, continuation lines joined.
mapfile -t commands < <(awk '
  /^## Running on MySQL/ { section = 1; next }
  /^## / { section = 0 }
  section && /^```sh/ { block = 1; next }
  section && block && /^```/ { exit }
  section && block { print }
' README.md | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta')
[ "${#commands[@]}" -eq 3 ] || { echo "expected 3 commands in the README's MySQL block, found ${#commands[@]}"; exit 1; }

as_written() {
  printf '%s' "$1" |
    sed -e "s#mysql://cdn:secret@db.example.net:3306/cdn#$url#g" \
        -e "s#<32+ random characters>#$secret#g" \
        -e "s#<first admin password>#$password#g"
}

build="$(as_written "${commands[0]}")"
[ "${build}" = "npm ci && npm run build" ] || { echo "unexpected first command: $build"; exit 1; }
echo "\$ npm run build"
npm run build

migrate="$(as_written "${commands[1]}")"
echo "\$ ${migrate/$secret/…}"
bash -c "$migrate"

start="$(as_written "${commands[2]}")"
echo "\$ ${start/$secret/…} &"
setsid bash -c "$start" >"$log" 2>&1 &
server_pid=$!

base="http://127.0.0.1:$PORT"
for _ in $(seq 1 60); do
  curl -fsS "$base/health/ready" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "$base/health/ready" || { cat "$log"; echo "the README's start command did not become ready"; exit 1; }
echo
cookies="$(mktemp)"
curl -fsS -c "$cookies" -X POST "$base/api/4.0/user/login" -d "{\"u\":\"admin\",\"p\":\"$password\"}"
echo
about="$(curl -fsS -b "$cookies" "$base/api/4.0/about")"
rm -f "$cookies"
echo "$about"
case "$about" in
  *'"schemaVersion":"'[A-Za-z]*) ;;
  *) echo "GET about has no schema version"; exit 1 ;;
esac
grep -q '"msg":"listening on http://127.0.0.1:' "$log" || { cat "$log"; echo "no start-up line"; exit 1; }
kill -TERM -- "-$server_pid"
# Until every process of the group (bash, npm, node) has exited.
for _ in $(seq 1 150); do
  kill -0 -- "-$server_pid" 2>/dev/null || break
  sleep 0.2
done
wait "$server_pid" 2>/dev/null || true
server_pid=""
grep -q '"msg":"stopped on SIGTERM' "$log" || { cat "$log"; echo "no shutdown line"; exit 1; }
echo "the README's MySQL steps work on a fresh database ($database)"
