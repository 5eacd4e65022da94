#!/bin/sh
# Mosquitto reads passwords only from a file, and a password file must not be committed. So at
# every start this script writes one from the environment (.env), copies the ACL next to it with
# the owner and mode mosquitto wants, makes the dynamic security plugin's file on the first start,
# and runs the broker ("$@"). It replaces the image's own
# entrypoint, whose recursive chown of /mosquitto fails noisily on the read-only configuration mount.
# The MOSQUITTO_* paths exist for infra/test, which runs this script outside a container.
set -eu

auth_dir="${MOSQUITTO_AUTH_DIR:-/mosquitto/auth}"
data_dir="${MOSQUITTO_DATA_DIR:-/mosquitto/data}"
acl_source="${MOSQUITTO_ACL_SOURCE:-/furnace/acl}"
: "${MQTT_DAQ_PASSWORD:?MQTT_DAQ_PASSWORD is not set}"
: "${MQTT_INGEST_PASSWORD:?MQTT_INGEST_PASSWORD is not set}"
: "${MQTT_DYNSEC_PASSWORD:?MQTT_DYNSEC_PASSWORD is not set}"

umask 077
mkdir -p "$auth_dir"
rm -f "$auth_dir/passwd" "$auth_dir/acl" "$auth_dir/healthcheck.password"
mosquitto_passwd -c -b "$auth_dir/passwd" daq "$MQTT_DAQ_PASSWORD"
mosquitto_passwd -b "$auth_dir/passwd" ingest "$MQTT_INGEST_PASSWORD"
mosquitto_passwd -b "$auth_dir/passwd" api "$MQTT_DYNSEC_PASSWORD"

# The health check's user gets a fresh random password at every start: it never leaves the container.
health_password="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
printf '%s' "$health_password" > "$auth_dir/healthcheck.password"
mosquitto_passwd -b "$auth_dir/passwd" healthcheck "$health_password"

cp "$acl_source" "$auth_dir/acl"

# The dynamic security plugin's clients (each furnace's DAQ), kept across restarts: made empty once.
# Its administrator is the password file's `api` user (acl), so the file holds no admin of its own.
# By default a plugin client may publish nothing and subscribe to nothing; its role grants its topic.
mkdir -p "$data_dir"
if [ ! -f "$data_dir/dynamic-security.json" ]; then
  printf '%s\n' '{"defaultACLAccess":{"publishClientSend":false,"publishClientReceive":true,"subscribe":false,"unsubscribe":true},"clients":[],"groups":[],"roles":[]}' \
    > "$data_dir/dynamic-security.json"
fi
# Mosquitto drops root for its own user: it must own its files (it warns about others since 2.0)
# and the persistence volume it writes to.
if [ "$(id -u)" = 0 ] && id mosquitto >/dev/null 2>&1; then
  chown -R mosquitto:mosquitto "$auth_dir"
  chown -R mosquitto:mosquitto "$data_dir"
fi

# The broker process does not need the passwords in its environment.
unset MQTT_DAQ_PASSWORD MQTT_INGEST_PASSWORD MQTT_DYNSEC_PASSWORD health_password
exec "$@"
