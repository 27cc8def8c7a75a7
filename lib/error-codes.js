/**
 * Every error dyno reports on purpose, declared once: its `DYNO_*` code, its
 * exit code, what it means, and the words of its message, with `{name}`
 * where a value goes. A code whose mistake shows in several ways has several
 * messages, each with a name (`DYNO_BAD_URL.notUrl`); a code with one has
 * `message`. Code raises them by name, with the values (lib/errors.js:
 * `dynoError('DYNO_BAD_OUT.notFolder', { out })`), and never words of its own.
 *
 * docs/errors.md is this table for people; a test keeps the two, and every
 * error raised in lib/, in step.
 *
 * Exit codes: 2, the user asked for something that cannot work; 1, the
 * target failed (for dyno micro, a benchmark file or a case of it); 3, a
 * gate failed (a --fail-on threshold broken, or --fail-if-slower); 70, a bug in dyno.
 *
 * The DYNO_BENCH_* codes are not thrown: they name why dyno micro could not
 * run a benchmark file or a case of it, in the report, on stderr and in
 * --json, while the other files and cases still run.
 */
export const ERROR_CODES = /** @type {const} */ ({
  DYNO_BAD_FLAG: {
    exitCode: 2,
    meaning: 'a flag is unknown, has a bad value, or clashes with another',
    messages: {
      unknown: 'unknown flag {flag}; see dyno {command} --help',
      unknownDidYouMean: 'unknown flag {flag} (did you mean --{suggestion}?); see dyno {command} --help',
      takesNoValue: '--{flag} takes no value; see dyno {command} --help',
      needsValue: '--{flag} needs a value; see dyno {command} --help',
      needsValueLike: '--{flag} needs a value ({placeholder}); see dyno {command} --help',
      unparsed: '{problem}; see dyno {command} --help',
      notNumber: '{flag} takes a number, not "{text}"',
      notWholeNumber: '{flag} takes a whole number, not "{text}"',
      notDuration: '{flag} takes a duration like 10, 10s, 500ms or 2m, not "{text}"',
      notAboveZero: '{flag} must be above 0, not {text}',
      belowMin: '{flag} must be at least {min}, not {text}',
      aboveMax: '{flag} must be at most {max}, not {text}',
      aboveMaxBecause: '{flag} must be at most {max} ({reason}), not {text}',
      beyondTimers: '{flag} must be at most {max} seconds (24 days, the longest timer Node.js can set), not {text}',
      rounds: 'rounds must be a whole number of at least 2, not {rounds}',
      seconds: '{name} takes seconds above 0, not {value}',
      bodyAndInput: '-b/--body and -i/--input both set the body; pass one',
      loadAndOnPort: '--load and --on-port both drive the app; pass one',
      pidAndCommand: '--pid observes a process that already runs; give it or a command after --, not both',
      durationWithoutPid: '--duration is for --pid without --load: a command dyno starts is observed until it exits or Ctrl-C',
      durationWithLoad: '--duration is for --pid without --load or --on-port: the load decides how long a loaded run lasts (its -d)',
      openInspectorWithoutPid: '--use-open-inspector goes with --pid',
      emptyOut: '--out takes a folder, not an empty value; leave it out for .dyno',
      unclosedQuote: 'unclosed {quote} in "{text}"',
      onlyWithLoad: '--{flag} goes with --load, which loads two versions of a server; without it dyno compare reads two result files',
      againstAndAB: '--against and --a/--b both name the versions; pass one way',
      failIfSlowerWithRate: '--fail-if-slower judges requests per second, which -R fixes at its rate; drop -R from --load to gate on throughput',
      failIfSlowerWithoutAgainst: '--fail-if-slower judges a change: it goes with --against <git ref>, or with dyno compare of two saved runs',
      roundsAndPrecision: '--rounds fixes how many rounds run, and --{flag} is for rounds that go on until the answer is known; pass one or the other',
      commandAfterAB: 'with --a and --b, there is no command after --',
      noVersions: '--load compares two versions: name them with --against <git-ref> -- <command>, or --a \'<command>\' --b \'<command>\'',
      samplingInterval: '--sampling-interval sets the sampling heap profiler\'s interval; add --sampling, or leave it out',
      roundsWithSampling: '--rounds counts the rounds between snapshots; with --sampling the load runs once, so leave it out',
      viewTakesNoCommand: '--view renders a profile; it takes no command',
      saveAndAgainst: '--save keeps runs of one version and --against compares two in one run; pass one of them',
      saveName: '--save takes a plain name (letters, digits, . _ -), not "{name}"',
      failOnInLoad: '--fail-on is dyno load\'s own: a load run by another command judges no thresholds',
      standalone: 'a benchmark file run by node takes --quick and --json, not "{arg}"; for other settings pass them to run({ rounds, warmup, time, timeout }) or use dyno micro'
    }
  },
  DYNO_BAD_ARGUMENTS: {
    exitCode: 2,
    meaning: 'the command was given more or fewer files, folders or URLs than it takes, or a word it does not take',
    messages: {
      oneUrl: 'one URL only, got {count}: {urls}',
      twoResults: 'two result files are wanted, a then b; got {count}',
      snapshots: 'give two or three snapshots, oldest first, like: dyno heap diff before.heapsnapshot after.heapsnapshot',
      oneRunFolder: 'give one run folder, like: dyno report .dyno/2026-11-22T10-00-00-flame',
      unexpected: 'unexpected "{arg}"; put the command after --',
      unexpectedWithLoad: 'unexpected "{arg}"; with --load, give the command after -- (with --against) or as --a and --b'
    }
  },
  DYNO_BAD_OPTION: {
    exitCode: 2,
    meaning: 'load options that cannot work together (workers, connections, method), or a number out of range',
    messages: {
      maxConnections: 'max connections ({max}) is below connections ({connections}); raise --max-connections',
      workers: '{workers} workers need at least as many connections; raise -c to {workers} or more',
      method: '{method} is not an HTTP method',
      atLeastOne: '{name} must be a whole number of at least 1, not {value}',
      atLeastZero: '{name} must be a whole number of at least 0, not {value}',
      aboveZero: '{name} must be a number above 0, not {value}',
      streamsWithoutHttp2: '--streams is HTTP/2\'s number of requests in flight on a connection; add --http2, or use -p to pipeline HTTP/1.1',
      pipeliningWithHttp2: '-p {pipelining} pipelines HTTP/1.1; with --http2, give the requests in flight on a connection as --streams {pipelining}'
    }
  },
  DYNO_BAD_SOCKET: {
    exitCode: 2,
    meaning: 'the unix socket to load is named twice or not at all, is not a socket, or may not be opened',
    messages: {
      twice: '{url} names a unix socket and so does --socket; give one of them',
      empty: 'the unix socket path is empty; write --socket /path/to/app.sock, or unix:/path/to/app.sock as the URL',
      placeholder: '$SOCKET stands for the socket an app listens on, in the --load of dyno flame, doctor, heap, async and compare; give dyno load the socket\'s path',
      notSocket: '{path} is not a unix socket (it is {what}); pass the path the server listens on',
      denied: 'no permission to connect to the unix socket {path}; run dyno as a user who may, or change the socket\'s mode'
    }
  },
  DYNO_NO_HTTP2: {
    exitCode: 2,
    meaning: '--http2 was asked of a server that does not speak HTTP/2 there',
    messages: {
      alpn: '{at} does not offer HTTP/2 in its TLS handshake (ALPN chose {chosen}); drop --http2 to load it over HTTP/1.1',
      cleartext: '{at} does not speak HTTP/2 without TLS (h2c prior knowledge): {why}; drop --http2 to load it over HTTP/1.1, or use https:// if it offers h2 there'
    }
  },
  DYNO_BAD_URL: {
    exitCode: 2,
    meaning: 'the URL is missing, malformed, not http(s), not on this machine, lost its port to the shell, or says https:// to a plain HTTP server',
    messages: {
      missing: 'no URL given; pass one like {example}',
      notUrl: '"{url}" is not a URL; pass one like http://127.0.0.1:3000/',
      protocol: '"{url}" uses {protocol}; dyno load speaks http:// and https://',
      noHost: '"{url}" has no host',
      unixForm: '"{url}" is not a form dyno reads; write unix:/path/to/app.sock:/request/path, or --socket /path/to/app.sock with an http:// URL',
      unresolved: 'cannot resolve the host in {at}; check the URL',
      notTls: '{at} does not speak TLS (it answered in plain text); for a plain HTTP server, use http:// in the URL',
      noPort: 'the --load URL {url} names no $PORT: the two versions listen on ports of their own, so write it like --load \'-c 10 http://127.0.0.1:$PORT/\' (or, for apps on unix sockets, --load \'--socket $SOCKET http://localhost/\')',
      emptyPort: 'the --load URL {url} has an empty port: the shell replaced $PORT before dyno saw it; put the load flags in single quotes: --load \'-c 10 http://127.0.0.1:$PORT/\'',
      notWholeUrl: 'the --load URL {url} is not a whole http(s) URL; write it like --load \'-c 10 http://127.0.0.1:$PORT/\''
    }
  },
  DYNO_BAD_HEADER: {
    exitCode: 2,
    meaning: 'a -H header is not "name: value", or a header has a bad name or value',
    messages: {
      notHeader: '-H "{text}" is not a header; write it as "name: value"',
      notObject: 'headers must be an object of names and values',
      badName: '"{name}" is not a valid header name',
      notString: 'the value of header "{name}" must be a string',
      lineBreak: 'the value of header "{name}" contains a line break'
    }
  },
  DYNO_BAD_FILE: {
    exitCode: 2,
    meaning: 'a file named on the command line cannot be read, or is not what it should be',
    messages: {
      unreadable: 'cannot read {file}: {why}',
      unreadableAs: 'cannot read the {what} file {file}: {why}',
      missing: 'no such file: {file}',
      notJson: '{file} is not JSON; pass results written by dyno micro --json/--save or dyno load --json',
      notResult: '{file} is not a result dyno compare understands (dyno micro --json/--save, or dyno load --json, with a schemaVersion)',
      folderNotSnapshot: '{file} is a folder, not a snapshot; give .heapsnapshot files',
      noBenchmark: 'cannot read the benchmark file {file}: no such file',
      notBenchmark: '{file} is not a file; pass benchmark files, not folders',
      outsideRepository: '{file} is outside the repository {root}; --against runs a benchmark file of the repository against another version of it'
    }
  },
  DYNO_BAD_REQUESTS: {
    exitCode: 2,
    meaning: 'the requests given to the load API are not a non-empty array, or cannot move to worker threads',
    messages: {
      notArray: 'requests must be a non-empty array of request descriptions',
      badRequest: 'request {number}: {problem}',
      hooksInWorkers: 'requests with hooks cannot move to worker threads; pass them as requestsFile instead'
    }
  },
  DYNO_BAD_REQUESTS_FILE: {
    exitCode: 2,
    meaning: 'a --requests file cannot be loaded, or holds a request that is not valid HTTP',
    messages: {
      unreadable: 'cannot read requests file {file}: {why}',
      notJson: 'requests file {file} is not valid JSON: {why}',
      notLoaded: 'cannot load requests file {file}: {why}',
      noRequests: 'requests file {file} must export a non-empty array of requests like { method, path, headers, body }',
      badRequest: 'requests file {file}, request {number}: {problem}'
    }
  },
  DYNO_BAD_CA: {
    exitCode: 2,
    meaning: 'the --ca file is not a PEM certificate',
    messages: {
      noCertificate: 'the certificate authority (--ca) holds no certificate (a key or a request?); pass the CA certificate, in PEM',
      notPem: 'the certificate authority (--ca) is not a PEM certificate (it must start with -----BEGIN CERTIFICATE-----); convert a DER file with: openssl x509 -inform der -in ca.der -out ca.pem',
      badBlock: 'the certificate authority (--ca) holds a PEM block that is not a valid certificate'
    }
  },
  DYNO_OVER_LIMIT: {
    exitCode: 2,
    meaning: 'the load asks for more than the machine allows: open files, local ports, requests in flight, threads',
    messages: {
      pipelining: '-p {pipelining} is more than the {max} requests in flight dyno keeps on one connection; lower -p',
      streams: '--streams {streams} is more than the {max} requests in flight dyno keeps on one connection; lower --streams',
      workers: '-w {workers} starts {workers} threads on {cores} CPUs; beyond {max} they only add overhead; lower -w',
      ports: '{flag} {n} needs a local port per connection, and this system has {ports}; lower {flag}',
      portsLinux: '{flag} {n} needs a local port per connection, and this system has {ports} (net.ipv4.ip_local_port_range); lower {flag}',
      openFiles: '{flag} {n} needs an open file per connection, and this process may open {sockets} more (its open-file limit is {limit}); raise it with "ulimit -n {wanted}" before starting dyno (as root beyond the hard limit, ulimit -Hn), or lower {flag}',
      inFlight: '-c {connections} with {flag} {pipelining} keeps {inFlight} requests in flight; dyno keeps at most {max}; lower -c or {flag}',
      ranOut: 'this process ran out of open files while connecting to {at} ({code}); lower -c, or raise the open-file limit (ulimit -n)'
    }
  },
  DYNO_REQUEST_HOOK: {
    exitCode: 2,
    meaning: 'a setupRequest or onResponse hook of a requests file threw or returned something unusable',
    messages: {
      returned: 'the setupRequest hook of {request} returned {problem}',
      threw: 'the {hook} hook of {request} threw: {why}'
    }
  },
  DYNO_BAD_OUT: {
    exitCode: 2,
    meaning: '--out is not a folder dyno can create run folders in',
    messages: {
      notFolder: '--out {out} is not a folder; give a folder for the run folders, like --out .dyno',
      notWritable: 'cannot create a run folder in {out} ({why}); give a writable folder with --out'
    }
  },
  DYNO_BAD_RUN_FOLDER: {
    exitCode: 2,
    meaning: 'the folder given to dyno report is not a dyno run folder, or is damaged',
    messages: {
      missing: '{path} does not exist; is {folder} a dyno run folder?',
      missingDoctor: '{path} does not exist; is {folder} a dyno doctor run folder?',
      unreadable: 'cannot read {path}: {why}',
      notJson: '{path} is not valid JSON: {why}',
      notMeta: '{path} is not a dyno run\'s meta.json',
      noKind: '{path} says no kind of run; is {folder} a dyno run folder?',
      unknownKind: '{folder} holds a "{kind}" run, which this dyno cannot render; the kinds it renders are {kinds}',
      noCompare: '{folder} holds no readable compare.json: give the folder dyno compare --load wrote, not one of its before-N or after-N folders',
      notCompare: '{path} is not what dyno compare --load writes',
      noHeapProfile: '{folder} holds no heap profile',
      notHeapProfile: '{path} is not a sampling heap profile: {why}',
      fewSnapshots: '{folder} holds fewer than two heap snapshots to compare',
      notProfileList: '{path} is not a list of profiles'
    }
  },
  DYNO_FOLDER_NOT_WRITABLE: {
    exitCode: 2,
    meaning: 'dyno report cannot write the reports into the run folder (read-only): render a copy',
    message: 'cannot write the reports into {folder} ({code}): dyno report writes them beside the data; copy the folder somewhere writable and name the copy'
  },
  DYNO_BAD_PROFILE: {
    exitCode: 2,
    meaning: 'the file given to --view, or the profile in a run folder, is not a valid CPU profile',
    messages: {
      missing: 'no such file: {file}',
      notJson: 'cannot read {file} as JSON: {why}',
      notProfile: '{file} is not a CPU profile (.cpuprofile): {why}',
      inFolder: '{profile} is not a CPU profile: {why}',
      ofUnit: 'the profile of {unit} is not a CPU profile: {why}'
    }
  },
  DYNO_NO_COMMAND: {
    exitCode: 2,
    meaning: 'no command to observe after --, or an empty --a or --b',
    messages: {
      observe: 'no command to observe; give it after --, like: -- node app.js (or --pid <pid> for a process that already runs)',
      against: 'no command to run; give it after --, like: --against HEAD -- node server.js',
      missingVersion: '--{version} is missing: --a and --b each give the command that starts one version',
      emptyVersion: '--{version} is empty; give the command that starts that version, like --a \'node old.js\''
    }
  },
  DYNO_NO_FILE: {
    exitCode: 2,
    meaning: 'no benchmark file given to dyno micro',
    message: 'no benchmark file given; pass one like examples/micro/divide-by-and-sum.js'
  },
  DYNO_COMMAND_NOT_FOUND: {
    exitCode: 2,
    meaning: 'the command to observe is not a program on PATH or on disk',
    message: 'command not found: {program}; give the command that starts your app, like: -- node app.js'
  },
  DYNO_COMMAND_FAILED: {
    exitCode: 2,
    meaning: 'the command to observe could not be started',
    message: 'cannot start {program}: {why}'
  },
  DYNO_NOT_NODE: {
    exitCode: 2,
    meaning: 'the command started no Node.js process for the agent to observe',
    message: '"{command}" started no Node.js process; dyno observes commands that run node, like: -- node app.js, -- npm start'
  },
  DYNO_PID_NOT_FOUND: {
    exitCode: 2,
    meaning: '--pid names no running process',
    message: 'no process has pid {pid}; find the app\'s with: pgrep -af node'
  },
  DYNO_PID_NOT_YOURS: {
    exitCode: 2,
    meaning: '--pid names a process of another user',
    message: 'pid {pid} belongs to another user; run dyno as that user (sudo -u <user> dyno …)'
  },
  DYNO_PID_NOT_NODE: {
    exitCode: 2,
    meaning: '--pid names a process that is not a Node.js process dyno can observe',
    messages: {
      other: 'pid {pid} runs {program} ({command}), not Node.js; give the pid of the node process (pgrep -af node)',
      self: 'pid {pid} is dyno itself; give the pid of the app (pgrep -af node)'
    }
  },
  DYNO_PID_UNSUPPORTED: {
    exitCode: 2,
    meaning: '--pid needs Linux\'s /proc',
    message: '--pid works on Linux, where /proc shows a process\'s flags and ports; this is {platform}. Start the app with dyno instead: -- node app.js'
  },
  DYNO_PID_FORBIDDEN: {
    exitCode: 2,
    meaning: 'the process was started so that its inspector cannot, or should not, be opened from outside',
    messages: {
      flag: 'pid {pid} runs with {flag}, under which it opens no inspector on SIGUSR1; restart it without that flag, or under dyno: -- node app.js',
      publicHost: 'pid {pid} would open its inspector on {host}, reachable from other machines (its --inspect-port); dyno opens inspectors on loopback only: restart it with --inspect-port=127.0.0.1:9229'
    }
  },
  DYNO_PID_INSPECTOR_OPEN: {
    exitCode: 2,
    meaning: 'the process already has an inspector open, which someone else may be using',
    message: 'pid {pid} already has its inspector open ({how}), maybe for someone else\'s debugger; add --use-open-inspector to observe through it (dyno then leaves it open)'
  },
  DYNO_PID_PORT_TAKEN: {
    exitCode: 2,
    meaning: 'the port where the process would open its inspector is taken',
    message: 'port {port}, where pid {pid} would open its inspector, is taken by {owner}; end that, or start the app with another port: node --inspect-port=9230 app.js (0 lets the system pick one)'
  },
  DYNO_PID_NO_INSPECTOR: {
    exitCode: 1,
    meaning: 'the process did not open its inspector, or dyno could not connect to it',
    messages: {
      noSignal: 'pid {pid} opened no inspector within {seconds} s of SIGUSR1: it may handle SIGUSR1 itself, or be held in native code (then it may still open its inspector later: restart it if so)',
      noConnection: 'could not speak to the inspector of pid {pid} on port {port}: {why}',
      notFound: 'pid {pid} was started with its inspector open, but dyno found no port it answers on; give it --inspect-port=<port> when you start it'
    }
  },
  DYNO_PID_OLD_NODE: {
    exitCode: 2,
    meaning: 'the process runs a Node.js too old for dyno\'s agent',
    message: 'pid {pid} runs Node.js {version}; dyno joins processes of Node.js 20.16 and later'
  },
  DYNO_PID_NO_ANSWER: {
    exitCode: 1,
    meaning: 'the process\'s main thread did not answer in time',
    message: 'pid {pid} did not answer within {seconds} s: its main thread may be blocked (dyno doctor --pid shows it once the loop turns again)'
  },
  DYNO_PID_STOPPED: {
    exitCode: 2,
    meaning: 'the process is stopped, and would open its inspector only once continued',
    message: 'pid {pid} is stopped by {by}: continue it first (kill -CONT {pid}, or detach the debugger)'
  },
  DYNO_PID_CLUSTER_PRIMARY: {
    exitCode: 2,
    meaning: 'the process is a cluster\'s primary, whose workers would open their inspectors too',
    message: 'pid {pid} is a cluster\'s primary: its workers serve the requests, and Node opens every worker\'s inspector when the primary\'s opens (and leaves them open); join a worker instead: --pid {workers}'
  },
  DYNO_PID_OBSERVED: {
    exitCode: 2,
    meaning: 'another dyno run is observing the process',
    message: 'pid {pid} is being observed by another dyno run (or one started it with dyno\'s agent); wait for that run to end'
  },
  DYNO_PID_AGENT_FAILED: {
    exitCode: 1,
    meaning: 'dyno\'s agent could not start inside the process',
    message: 'dyno\'s agent could not start in pid {pid}: {why}'
  },
  DYNO_PID_EXITED: {
    exitCode: 1,
    meaning: 'the process ended while dyno was joining it',
    message: 'pid {pid} ended while dyno was joining it'
  },
  DYNO_PID_NOT_LISTENING: {
    exitCode: 2,
    meaning: '--load or --on-port was given for a process that listens on nothing',
    messages: {
      nothing: 'pid {pid} listens on no {kind}, so there is nothing to load; drop --load and --on-port to observe it as it runs (--duration)',
      children: 'pid {pid} serves no {kind} itself; its Node.js child processes {children} may: join one of them with --pid'
    }
  },
  DYNO_ON_PORT_NOT_FOUND: {
    exitCode: 2,
    meaning: 'the --on-port command was not found by the shell',
    message: 'the --on-port command was not found (sh said 127): "{command}"'
  },
  DYNO_MISMATCH: {
    exitCode: 2,
    meaning: 'dyno compare was given two results of different kinds',
    message: '{a} is a {kindA} result and {b} a {kindB} result; compare two of a kind'
  },
  DYNO_BAD_SAVE: {
    exitCode: 2,
    meaning: 'the file dyno micro --save would add its run to holds something other than saved dyno micro runs, or cannot be written',
    messages: {
      notWritable: 'cannot save to {file}: {why}; run where dyno may write, or leave out --save',
      unreadable: 'cannot read {file}: {why}',
      notRuns: '{file} holds something other than saved dyno micro runs; move it away or save under another name'
    }
  },
  DYNO_NOT_GIT: {
    exitCode: 2,
    meaning: '--against was asked for outside a git repository, or git is not on the PATH',
    messages: {
      noGit: '--against needs git, which is not on the PATH',
      notRepository: '{cwd} is not inside a git repository; --against compares with a version of the repository you run in'
    }
  },
  DYNO_BAD_REF: {
    exitCode: 2,
    meaning: 'the ref given to --against names no commit',
    messages: {
      notRef: '"{ref}" is not a git ref; pass a branch, tag or commit, such as HEAD or main',
      noCommit: 'no commit named "{ref}" in {root}; pass a branch, tag or commit (git log --oneline lists them)'
    }
  },
  DYNO_CHECKOUT: {
    exitCode: 2,
    meaning: 'git could not check the ref given to --against out into a temporary worktree',
    message: 'git could not check out {ref}: {why}'
  },
  DYNO_TARGET_REFUSED: {
    exitCode: 1,
    meaning: 'nothing listens at the load\'s address',
    messages: {
      refused: 'nothing is listening on {at}; start the server first, or check the port',
      refusedBoth: 'nothing is listening on {at} (neither 127.0.0.1 nor ::1); start the server first, or check the port',
      otherFamily: 'nothing is listening on {at}, but {other} accepts connections: the server listens on {family} only; put {host} or localhost in the URL',
      noSocket: 'there is no unix socket at {path}; start the server first, or check the path',
      socketRefused: 'nothing is listening on the unix socket {path} (it is left from a server that stopped); start the server'
    }
  },
  DYNO_TARGET_UNREACHABLE: {
    exitCode: 1,
    meaning: 'the load\'s address cannot be reached',
    message: 'cannot reach {at} ({code})'
  },
  DYNO_TARGET_TIMEOUT: {
    exitCode: 1,
    meaning: 'connecting to the target timed out',
    message: '{at} did not accept a connection in time; is the server overloaded or the port filtered?'
  },
  DYNO_TARGET_RESET: {
    exitCode: 1,
    meaning: 'the target reset the connection',
    message: '{at} reset the connection at once; is it an HTTP server?'
  },
  DYNO_TARGET_FAILED: {
    exitCode: 1,
    meaning: 'connecting to the target failed for another reason',
    message: 'cannot connect to {at}: {why}'
  },
  DYNO_TLS_FAILED: {
    exitCode: 1,
    meaning: 'the TLS handshake with the target failed',
    message: 'TLS handshake with {at} failed ({why}); is it an https:// server?'
  },
  DYNO_TLS_CERTIFICATE: {
    exitCode: 1,
    meaning: 'the target\'s certificate does not verify (see --ca, --insecure)',
    messages: {
      untrusted: 'the certificate of {at} does not verify ({why}); pass --ca <file> to trust its issuer, or --insecure to skip verification',
      notByCa: 'the certificate of {at} does not verify ({why}); is the --ca file the authority that signed it? --insecure skips verification'
    }
  },
  DYNO_TARGET_EXITED: {
    exitCode: 1,
    meaning: 'the observed app exited before it listened',
    message: 'the app {how} before it listened on a port'
  },
  DYNO_LISTEN_TIMEOUT: {
    exitCode: 1,
    meaning: 'the observed app did not listen within --listen-timeout',
    message: 'the app did not listen on a port within {seconds} s; raise --listen-timeout, or check that it starts a server'
  },
  DYNO_LOAD_FAILED: {
    exitCode: 1,
    meaning: 'the load failed: the target answered no request, or stopped accepting connections during the run',
    messages: {
      refusing: 'the target stopped accepting connections during the run ({refused} refused); did it crash?',
      turnedAway: 'the target stopped taking connections during the run ({errors} failed, none answered since); did it crash, or remove its socket?',
      stillWaiting: 'the target answered none of the {sent} requests sent: {pending} were still waiting for an answer when the run ended',
      stillWaitingFailed: 'the target answered none of the {sent} requests sent: {pending} were still waiting for an answer when the run ended, {errors} failed (see the errors above)',
      noAnswer: 'the target did not answer a single request; see the errors above',
      endedFirst: 'the run ended before the target answered a single request',
      broke: 'the load failed: {why}'
    }
  },
  DYNO_ON_PORT_FAILED: {
    exitCode: 1,
    meaning: 'the --on-port command failed (non-zero exit, or killed)',
    messages: {
      killed: 'the --on-port command was killed by {signal}: "{command}"',
      exited: 'the --on-port command exited with code {code}: "{command}"'
    }
  },
  DYNO_APP_ENDED: {
    exitCode: 1,
    meaning: 'an app dyno compare was loading ended before its rounds were done',
    messages: {
      during: '{version}: the app {how} during round {round}; the rounds before it are compared',
      duringWarmUp: '{version}: the app {how} during round {round} (warming up); the rounds before it are compared',
      between: '{version}: the app {how} between the loads of round {round}; the rounds before it are compared',
      betweenWarmUp: '{version}: the app {how} between the loads of round {round} (warming up); the rounds before it are compared'
    }
  },
  DYNO_NO_PROFILE: {
    exitCode: 1,
    meaning: 'the app ended, or its loop was held, before it wrote any profile',
    message: 'no profile was written: the app {how}'
  },
  DYNO_BAD_SNAPSHOT: {
    exitCode: 2,
    meaning: 'a file given as a heap snapshot is not one V8 wrote, or was cut short',
    message: '{file} is not a heap snapshot V8 wrote: {why}'
  },
  DYNO_HEAP_TOO_LARGE: {
    exitCode: 2,
    meaning: 'analysing a heap snapshot needs more memory than the machine has available',
    message: '{file} holds {objects} objects and {references} references: analysing it needs about {needed} of memory and {available} is available; free some memory, or analyse it on a machine with more'
  },
  DYNO_SNAPSHOT_FAILED: {
    exitCode: 1,
    meaning: 'the app could not take a heap snapshot or run the sampling heap profiler (it ended, or did not answer)',
    messages: {
      snapshot: 'the heap snapshot {when} failed: {why}',
      sampling: 'the sampling heap profiler failed: {why}'
    }
  },
  DYNO_NOT_ONE_PROCESS: {
    exitCode: 2,
    meaning: 'dyno heap diff was given snapshots of different processes, whose object ids match by chance',
    message: '{first} and {last} are not snapshots of one process: {share}% of the object ids they share name objects of another kind (in one process almost none do); compare snapshots that one process wrote'
  },
  DYNO_APP_SILENT: {
    exitCode: 1,
    meaning: 'an app dyno compare --load was loading answered no request in three rounds in a row (one alone may be a slow start): it hangs, or the URL is wrong for it',
    message: '{version}: the app answered no request from round {round} on; the rounds before it are compared'
  },
  DYNO_NOTHING_COMPARED: {
    exitCode: 1,
    meaning: 'dyno compare --load ran rounds, and in none did both versions answer: no ratio, no verdict',
    messages: {
      silent: 'no round could be compared: {versions} answered no request; check the URL and that both versions answer it',
      neverBoth: 'no round could be compared: no round had answers from both; check the URL and that both versions answer it'
    }
  },
  DYNO_NO_SNAPSHOT: {
    exitCode: 1,
    meaning: 'the app ended before dyno had two heap snapshots (or, with --sampling, its allocation profile)',
    messages: {
      snapshots: 'the app {how} before dyno had two heap snapshots',
      sampling: 'the app {how} before dyno had its allocation profile'
    }
  },
  DYNO_BENCH_SYNTAX: {
    exitCode: 1,
    meaning: 'a benchmark file, or a module it imports, does not parse',
    messages: {
      at: '{name}: {message} ({place})',
      plain: '{name}: {message}'
    }
  },
  DYNO_BENCH_LOAD_THREW: {
    exitCode: 1,
    meaning: 'a benchmark file threw while it was loaded, before any case ran',
    messages: {
      at: '{name}: {message} ({place})',
      plain: '{name}: {message}',
      value: 'threw {value}'
    }
  },
  DYNO_BENCH_BAD_CASE: {
    exitCode: 1,
    meaning: 'a benchmark file declares a case wrongly: bench() without a name or a function, or two cases of one name',
    messages: {
      noName: 'bench() needs a name as its first argument',
      noNameInGroup: 'bench() needs a name as its first argument (in group "{group}")',
      noFunction: 'bench("{name}") needs a function as its second argument',
      twice: 'two cases are named "{name}"; give each its own name',
      twiceInGroup: 'two cases are named "{name}" in group "{group}"; give each its own name'
    }
  },
  DYNO_BENCH_NO_CASES: {
    exitCode: 1,
    meaning: 'a benchmark file declares no cases',
    message: 'declares no cases; add some with bench(name, fn)'
  },
  DYNO_BENCH_CASE_GONE: {
    exitCode: 1,
    meaning: 'a case the benchmark file declared when dyno micro listed its cases is no longer declared (the file changed during the run)',
    message: 'the case "{name}" is no longer declared by the file'
  },
  DYNO_BENCH_SETUP_THREW: {
    exitCode: 1,
    meaning: 'the setup of a case threw, or its promise rejected',
    messages: {
      at: '{name}: {message} ({place})',
      plain: '{name}: {message}',
      value: 'threw {value}'
    }
  },
  DYNO_BENCH_CASE_THREW: {
    exitCode: 1,
    meaning: 'a case threw, or its promise rejected',
    messages: {
      at: '{name}: {message} ({place})',
      plain: '{name}: {message}',
      value: 'threw {value}'
    }
  },
  DYNO_BENCH_TIMEOUT: {
    exitCode: 1,
    meaning: 'a case\'s process did not answer within --timeout (loading and warming up, or one slice): an async case that never settles?',
    message: 'did not finish within {seconds} s (an async case that never settles? see --timeout)'
  },
  DYNO_BENCH_DIED: {
    exitCode: 1,
    meaning: 'a case\'s process ended without a result: it exited, crashed or ran out of memory',
    messages: {
      plain: 'its process died',
      said: 'its process died: {line}'
    }
  },
  DYNO_BAD_SEGMENT: {
    exitCode: 2,
    meaning: '--segment is not i/n with 0 <= i < n',
    messages: {
      flag: '--segment {text} is not one: give i/n with i counted from 0, like 0/3, 1/3 and 2/3 for three generators',
      option: 'segment {index}/{count} is not one: give i/n with 0 <= i < n, like 0/3, 1/3 and 2/3 for three generators'
    }
  },
  DYNO_EMPTY_SEGMENT: {
    exitCode: 2,
    meaning: 'a --segment would make no connection or no request: more generators than connections (or -a requests)',
    messages: {
      connections: 'segment {index}/{count} has nothing to do: {count} generators share -c {connections} connections; give at least {count}, or use fewer generators',
      amount: 'segment {index}/{count} has nothing to do: {count} generators share -a {amount} requests; give at least {count}, or use fewer generators',
      workers: '{workers} workers need at least as many connections, and segment {index}/{count} has {own} of the {connections}; raise -c or lower -w'
    }
  },
  DYNO_BAD_START: {
    exitCode: 2,
    meaning: '--start-at is not a time with its zone, or is more than an hour away',
    messages: {
      flag: '--start-at {text} is not a time dyno reads: give ISO 8601 with its zone (2026-11-26T10:00:00Z) or epoch milliseconds',
      notTime: 'the start time is not a time; give an ISO 8601 time (2026-11-26T10:00:00Z) or epoch milliseconds',
      tooFar: '--start-at {at} is more than an hour away; give a time a little after every generator is started'
    }
  },
  DYNO_BAD_KUBERNETES: {
    exitCode: 2,
    meaning: 'dyno load --kubernetes cannot write manifests for this load: a URL on this machine, a flag that does not go with it, a bad namespace, a file too large for a ConfigMap, or an --out it cannot write',
    messages: {
      localUrl: '{url} is this machine, and from a pod it would be the pod itself: give the address the pods reach the server at, like the Service\'s http://my-app.my-namespace.svc:8080/',
      withSegment: '--kubernetes gives each pod its --segment (its completion index); leave --segment out',
      onlyWith: '--{flag} goes with --kubernetes <n>, which writes the manifests of a load; leave it out to load from here',
      notWithLoad: '--{flag} writes Kubernetes manifests: run dyno load --kubernetes on its own, not as --load',
      namespace: '--namespace {namespace} is not a Kubernetes namespace: lower-case letters, digits and -, at most 63',
      fileTooLarge: 'the --{flag} file {file} is {size}, over the 1024 KiB a ConfigMap holds; make it smaller, or build it into the image',
      filesTooLarge: 'the files {files} come to {size}, over the 1024 KiB a ConfigMap holds; make them smaller, or build them into the image',
      outUnwritable: 'cannot write the manifests to {out}: {why}'
    }
  },
  DYNO_BAD_RESULT: {
    exitCode: 2,
    meaning: 'a file given to dyno merge is not the --json result of dyno load, or was cut short',
    messages: {
      noDocument: '{name} holds no complete JSON document: is it the output of dyno load --json, or was it cut short?',
      notResult: '{name} is not a result of dyno load --json: {why}'
    }
  },
  DYNO_NOT_ONE_LOAD: {
    exitCode: 2,
    meaning: 'dyno merge was given results of other URLs or methods: they are not parts of one load',
    messages: {
      url: '{name} loaded {url}, {first} {firstUrl}: merge the results of one load only',
      method: '{name} loaded with {method}, {first} with {firstMethod}: merge the results of one load only'
    }
  },
  DYNO_NO_RESULT: {
    exitCode: 2,
    meaning: 'dyno merge was given no file',
    message: 'no result to merge; give the --json results of dyno load, like: dyno merge gen-*.json'
  },
  DYNO_BAD_THRESHOLD: {
    exitCode: 2,
    meaning: 'a --fail-on threshold names an unknown figure, is malformed, or has a unit that does not fit its figure',
    messages: {
      none: '{flag} needs thresholds, like \'p99<200ms,errors=0\'; the figures are {figures}',
      emptyBetweenCommas: '{flag} "{text}" has an empty threshold between its commas',
      bad: '{flag} "{written}": {why}'
    }
  },
  DYNO_THRESHOLD_NO_DATA: {
    exitCode: 2,
    meaning: 'a --fail-on threshold cannot be judged: no request of the run completed',
    message: 'cannot judge {threshold}: {problem}'
  },
  DYNO_THRESHOLD_BROKEN: {
    exitCode: 3,
    meaning: 'a --fail-on threshold was broken: the run worked, and its result is worse than the limit',
    message: 'threshold {threshold} broken: {figure} was {value}'
  },
  DYNO_SLOWER: {
    exitCode: 3,
    meaning: '--fail-if-slower: the version after is slower than the percent allows, with 95% confidence (its whole interval beyond it)',
    message: 'slower by more than {percent}% with 95% confidence: {figures}'
  },
  DYNO_INTERNAL: {
    exitCode: 70,
    meaning: 'a bug in dyno: please report it with the command line and what it printed',
    messages: {
      bug: 'a bug in dyno ({detail}); please report it with the command line and this output',
      workerCrashed: 'a bug in dyno (load worker {worker} crashed: {detail}); please report it with the command line and this output',
      workerExited: 'a bug in dyno (load worker {worker} exited with code {code} before it sent its result); please report it with the command line and this output'
    }
  }
})
