#!/bin/bash
# A one-node Slurm cluster on this machine, for testing the README's Slurm
# recipe (tools/slurm/slurm_recipe_test.sh) with Debian's slurm-wlm and
# munge. Needs root (slurmd runs jobs as their users).
#
#   source tools/slurm/local_cluster.sh
#   cluster_start DIR    # munged with a fresh key, slurmctld, slurmd; exports SLURM_CONF
#   ...                  # sbatch, squeue, scontrol now talk to this cluster
#   cluster_stop         # stops the three daemons it started (by their pid files)
#
# Everything lives under DIR (a short path: munge's socket path must fit in
# 108 bytes): the munge key, socket and log, slurm.conf (this machine's core
# count and host name, free TCP ports, a single partition), the controller's
# state, slurmd's spool and both daemons' logs. Nothing under /etc is used
# or changed, so a cluster already on the machine is left alone.

_cluster_free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

_cluster_write_conf() {
  local dir="$1" host="$2" cpus="$3" ctld_port="$4" slurmd_port="$5"
  : >"$dir/plugstack.conf"  # not /etc/slurm's
  cat >"$dir/slurm.conf" <<EOF
ClusterName=privbench
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=3600
# The node as configured here, whatever slurmd detects (a 1-core machine
# still offers the 2 CPUs a recipe task asks for).
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

# Waits up to $2 seconds for the command $1 to succeed.
_cluster_wait() {
  local i
  for ((i = 0; i < $2 * 4; i++)); do
    eval "$1" >/dev/null 2>&1 && return 0
    sleep 0.25
  done
  return 1
}

cluster_start() {
  CLUSTER_DIR="$1"
  local dir="$CLUSTER_DIR" host cpus
  host=$(hostname -s)
  cpus=$(nproc)
  ((cpus < 2)) && cpus=2
  mkdir -p "$dir"/{key,munge,state,spool,log}
  chmod 711 "$dir"
  chmod 700 "$dir/key"
  chmod 755 "$dir/munge"  # munged wants its socket directory open to all
  head -c 1024 /dev/urandom >"$dir/key/munge.key"
  chmod 400 "$dir/key/munge.key"
  munged --key-file="$dir/key/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/seed" --num-threads=2 || {
    echo "local_cluster: munged did not start:" >&2
    tail -5 "$dir/log/munged.log" >&2
    return 1
  }
  _cluster_write_conf "$dir" "$host" "$cpus" "$(_cluster_free_port)" "$(_cluster_free_port)"
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF" || { _cluster_log_tail; return 1; }
  slurmd -f "$SLURM_CONF" -N "$host" || { _cluster_log_tail; return 1; }
  if ! _cluster_wait '[ "$(sinfo -h -N -o %t)" = idle ]' 60; then
    echo "local_cluster: the node did not become idle within 60 s: $(sinfo -h -N -o '%t %E' 2>&1)" >&2
    _cluster_log_tail
    return 1
  fi
  echo "local_cluster: slurmctld and slurmd up on $host ($cpus CPUs), SLURM_CONF=$SLURM_CONF" >&2
}

_cluster_log_tail() {
  local f
  for f in "$CLUSTER_DIR"/log/*.log; do
    [ -e "$f" ] && { echo "== $f" >&2; tail -15 "$f" >&2; }
  done
}

# Stops the daemons this script started: slurmd, slurmctld, munged, each by
# the pid its pid file recorded, then waits for them to exit.
cluster_stop() {
  [ -n "${CLUSTER_DIR:-}" ] || return 0
  local name pidfile pid
  for name in slurmd slurmctld munge/munged; do
    pidfile="$CLUSTER_DIR/$name.pid"
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || continue
    _cluster_wait "! kill -0 $pid" 30 || kill -9 "$pid" 2>/dev/null
  done
  CLUSTER_DIR=""
}
