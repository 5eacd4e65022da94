/*
 * A furnace of the lab (docs/behaviour.md, "Furnaces"). Its code is its short, unique name in URLs and in
 * its DAQ's MQTT topic, so it is kept to what needs no escaping anywhere: lowercase letters, digits and
 * hyphens, 1–16 characters, starting with a letter or digit (the database checks the same).
 */
export const FURNACE_CODE_PATTERN = /^[a-z0-9][a-z0-9-]{0,15}$/;
