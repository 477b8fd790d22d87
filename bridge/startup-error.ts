/** A startup problem a person can fix (port in use, data dir not writable): one line, no stack. */
export class StartupError extends Error {}
