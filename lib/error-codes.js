/**
 * Every `DYNO_*` code dyno raises, with its exit code and what it means.
 * docs/errors.md is this table for people; a test keeps the two, and every
 * code raised in lib/, in step.
 *
 * Exit codes: 2, the user asked for something that cannot work; 1, the
 * target failed; 3, a bug in dyno, or a threshold of dyno load --fail-on broken.
 * @type {Record<string, { exitCode: 1 | 2 | 3, meaning: string }>}
 */
export const ERROR_CODES = {
  DYNO_BAD_FLAG: { exitCode: 2, meaning: 'a flag is unknown, has a bad value, or clashes with another' },
  DYNO_BAD_OPTION: { exitCode: 2, meaning: 'load options that cannot work together (workers, connections, method)' },
  DYNO_BAD_URL: { exitCode: 2, meaning: 'the URL is missing, malformed, not http(s), not on this machine, lost its port to the shell, or says https:// to a plain HTTP server' },
  DYNO_BAD_HEADER: { exitCode: 2, meaning: 'a -H header is not "name: value"' },
  DYNO_BAD_FILE: { exitCode: 2, meaning: 'a file named on the command line cannot be read, or is not what it should be' },
  DYNO_BAD_REQUESTS: { exitCode: 2, meaning: 'the requests given to the load API are not a non-empty array, or cannot move to worker threads' },
  DYNO_BAD_REQUESTS_FILE: { exitCode: 2, meaning: 'a --requests file cannot be loaded, or holds a request that is not valid HTTP' },
  DYNO_BAD_CA: { exitCode: 2, meaning: 'the --ca file is not a PEM certificate' },
  DYNO_OVER_LIMIT: { exitCode: 2, meaning: 'the load asks for more than the machine allows: open files, local ports, requests in flight, threads' },
  DYNO_REQUEST_HOOK: { exitCode: 2, meaning: 'a setupRequest or onResponse hook of a requests file threw or returned something unusable' },
  DYNO_BAD_OUT: { exitCode: 2, meaning: '--out is not a folder dyno can create run folders in' },
  DYNO_BAD_RUN_FOLDER: { exitCode: 2, meaning: 'the folder given to dyno report is not a dyno run folder, or is damaged' },
  DYNO_FOLDER_NOT_WRITABLE: { exitCode: 2, meaning: 'dyno report cannot write the reports into the run folder (read-only): render a copy' },
  DYNO_BAD_PROFILE: { exitCode: 2, meaning: 'the file given to --view is not a valid CPU profile' },
  DYNO_NO_COMMAND: { exitCode: 2, meaning: 'no command to observe after --' },
  DYNO_NO_FILE: { exitCode: 2, meaning: 'no benchmark file given to dyno micro' },
  DYNO_COMMAND_NOT_FOUND: { exitCode: 2, meaning: 'the command to observe is not a program on PATH or on disk' },
  DYNO_COMMAND_FAILED: { exitCode: 2, meaning: 'the command to observe could not be started' },
  DYNO_NOT_NODE: { exitCode: 2, meaning: 'the command started no Node.js process for the agent to observe' },
  DYNO_ON_PORT_NOT_FOUND: { exitCode: 2, meaning: 'the --on-port command was not found by the shell' },
  DYNO_MISMATCH: { exitCode: 2, meaning: 'dyno compare was given two results of different kinds' },
  DYNO_BAD_SAVE: { exitCode: 2, meaning: 'the file dyno micro --save would add its run to holds something other than saved dyno micro runs' },
  DYNO_NOT_GIT: { exitCode: 2, meaning: '--against was asked for outside a git repository, or git is not on the PATH' },
  DYNO_BAD_REF: { exitCode: 2, meaning: 'the ref given to --against names no commit' },
  DYNO_CHECKOUT: { exitCode: 2, meaning: 'git could not check the ref given to --against out into a temporary worktree' },
  DYNO_TARGET_REFUSED: { exitCode: 1, meaning: 'nothing listens at the load\'s address' },
  DYNO_TARGET_UNREACHABLE: { exitCode: 1, meaning: 'the load\'s address cannot be reached' },
  DYNO_TARGET_TIMEOUT: { exitCode: 1, meaning: 'connecting to the target timed out' },
  DYNO_TARGET_RESET: { exitCode: 1, meaning: 'the target reset the connection' },
  DYNO_TARGET_FAILED: { exitCode: 1, meaning: 'connecting to the target failed for another reason' },
  DYNO_TLS_FAILED: { exitCode: 1, meaning: 'the TLS handshake with the target failed' },
  DYNO_TLS_CERTIFICATE: { exitCode: 1, meaning: 'the target\'s certificate does not verify (see --ca, --insecure)' },
  DYNO_TARGET_EXITED: { exitCode: 1, meaning: 'the observed app exited before it listened' },
  DYNO_LISTEN_TIMEOUT: { exitCode: 1, meaning: 'the observed app did not listen within --listen-timeout' },
  DYNO_LOAD_FAILED: { exitCode: 1, meaning: 'the load at the observed app failed' },
  DYNO_ON_PORT_FAILED: { exitCode: 1, meaning: 'the --on-port command failed (non-zero exit, or killed)' },
  DYNO_APP_ENDED: { exitCode: 1, meaning: 'an app dyno compare was loading ended before its rounds were done' },
  DYNO_NO_PROFILE: { exitCode: 1, meaning: 'the app ended before it wrote any profile' },
  DYNO_BAD_SNAPSHOT: { exitCode: 2, meaning: 'a file given as a heap snapshot is not one V8 wrote, or was cut short' },
  DYNO_HEAP_TOO_LARGE: { exitCode: 2, meaning: 'analysing a heap snapshot needs more memory than the machine has available' },
  DYNO_SNAPSHOT_FAILED: { exitCode: 1, meaning: 'the app could not take a heap snapshot or run the sampling heap profiler (it ended, or did not answer)' },
  DYNO_NOT_ONE_PROCESS: { exitCode: 2, meaning: 'dyno heap diff was given snapshots of different processes, whose object ids match by chance' },
  DYNO_NOTHING_COMPARED: { exitCode: 1, meaning: 'dyno compare --load ran rounds, and in none did both versions answer: no ratio, no verdict' },
  DYNO_NO_SNAPSHOT: { exitCode: 1, meaning: 'the app ended before dyno had two heap snapshots (or, with --sampling, its allocation profile)' },
  DYNO_BAD_THRESHOLD: { exitCode: 2, meaning: 'a --fail-on threshold names an unknown figure, is malformed, or has a unit that does not fit its figure' },
  DYNO_THRESHOLD_NO_DATA: { exitCode: 2, meaning: 'a --fail-on threshold cannot be judged: no request of the run completed' },
  DYNO_THRESHOLD_BROKEN: { exitCode: 3, meaning: 'a --fail-on threshold was broken: the run worked, and its result is worse than the limit' },
  DYNO_INTERNAL: { exitCode: 3, meaning: 'a bug in dyno: please report it with the command line and what it printed' }
}
