/** What the archive's `manifest.json` says (docs/behaviour.md, "The archive"). */
export interface Manifest {
  /** ARCHIVE_FORMAT: what the import reads. */
  format: string;
  /** The test it was made of (the import makes a new one). */
  research_id: string;
  name: string;
  exported_at: string;
  /** The raw data's SHA-256 as docs/behaviour.md §13 defines it, and how many readings it covers. */
  data_sha256: string;
  readings: number;
  /** Every other file of the archive, with its size and SHA-256. */
  files: ManifestFile[];
}

export interface ManifestFile {
  name: string;
  size: number;
  sha256: string;
}

export const ARCHIVE_FORMAT = 'furnace-live-archive/1';

export const READINGS_FILE = 'readings.csv';
