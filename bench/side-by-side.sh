#!/usr/bin/env bash
# CPU per request of one running Traffic Ops compatible server, for the comparison's GET rows, measured
# the same way whatever the server is (this service, or the original Traffic Ops run beside it on the
# same machine with the same data set): wrk, one thread, a 2 s warm-up then three runs of 4 s per row,
# the CPU time (user + system, from /proc) of the server process and of its descendants (the workers of
# a primary) divided by the requests wrk counted.
#
#   bench/side-by-side.sh <base URL> <user> <password> <server pid>
#
# Prints, per row, the three runs as "µs/request / requests per second", then the resident memory of
# the tree's largest process after them (a worker of a primary; the original's one process), in MiB.
# Needs wrk and curl.
set -euo pipefail
base="$1" user="$2" password="$3" pid="$4"
cookie=$(curl -sk -i -X POST "$base/api/4.0/user/login" -d "{\"u\":\"$user\",\"p\":\"$password\"}" |
  grep -i '^set-cookie: mojolicious' | sed 's/^[Ss]et-[Cc]ookie: //; s/;.*//' | tr -d '\r')
[ -n "$cookie" ] || { echo "sign-in to $base failed" >&2; exit 1; }
ticks=$(getconf CLK_TCK)
tree() { echo "$1"; for child in $(pgrep -P "$1"); do tree "$child"; done; }
cpu() {
  local total=0 p
  for p in $(tree "$pid"); do
    total=$(( total + $(awk '{print $14 + $15}' "/proc/$p/stat") ))
  done
  echo "$total"
}
# The largest VmRSS in the tree, MiB.
rss() {
  local largest=0 p kib
  for p in $(tree "$pid"); do
    kib=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status")
    [ "$kib" -gt "$largest" ] && largest=$kib
  done
  echo $(( largest / 1024 ))
}
for row in "ping 32" "cdns 32" "types 32" "asns?limit=100 32" "deliveryservices 32" "servers 4"; do
  read -r path connections <<<"$row"
  url="$base/api/4.0/$path"
  wrk -t1 -c"$connections" -d2s -H "Cookie: $cookie" "$url" >/dev/null 2>&1
  runs=""
  for _ in 1 2 3; do
    before=$(cpu)
    out=$(wrk -t1 -c"$connections" -d4s -H "Cookie: $cookie" "$url" 2>&1)
    after=$(cpu)
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    runs="$runs $(( (after - before) * 1000000 / ticks / requests ))/${rps%.*}"
  done
  echo "$path (c=$connections):$runs; largest RSS $(rss) MiB"
done
