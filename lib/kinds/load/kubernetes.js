import { extname } from 'node:path'
import { dynoError } from '../../errors.js'

/**
 * `dyno load --kubernetes <n>`: the manifests of a load that n generators
 * make together as the pods of an Indexed Job, each its `--segment` (its
 * JOB_COMPLETION_INDEX) of it, all from one `--start-at`. Pure: options in,
 * Kubernetes objects and the commands to run them out; the CLI writes them
 * as YAML.
 */

/** More generators than this is a mistake, not a load. */
export const MAX_GENERATORS = 1000

/** Seconds from making the manifests to the common start, unless --start-at says. */
export const START_DELAY_S = 60

/** What a ConfigMap holds at most (its object, in etcd). */
export const CONFIGMAP_LIMIT_BYTES = 1024 * 1024

/** Where the pod finds the files the load reads. */
export const FILES_DIR = '/dyno/files'

/** How long a finished Job and its pods' logs stay, seconds. */
export const KEEP_FINISHED_S = 3600

/** Seconds kubectl wait waits beyond the load's own time, and when -a alone has none. */
const WAIT_MARGIN_S = 60
const WAIT_UNBOUNDED_S = 3600

/** The uid of the node user in the official Node.js images. */
const NODE_UID = 1000

const INDEX_VAR = 'JOB_COMPLETION_INDEX'

/**
 * A file the load reads, given on the command line.
 * @typedef {object} LoadFile
 * @property {'requests' | 'input' | 'ca'} flag
 * @property {string} file as given
 * @property {Buffer} content
 */

/**
 * @typedef {object} KubernetesPlan
 * @property {number} generators n, the Job's completions and parallelism
 * @property {string} url as given
 * @property {string[]} flags the user's load flags as words, without the URL, the files, --json,
 *   --segment, --start-at and the --kubernetes flags
 * @property {LoadFile[]} files
 * @property {string} image
 * @property {string} [namespace]
 * @property {number} now epoch ms, when the manifests are made
 * @property {number} [startAt] epoch ms, the user's --start-at
 * @property {number | null} durationS how long the load runs; null with -a alone (no limit)
 * @property {number} timeoutS how long a request may wait
 * @property {number} workers load threads of each generator (0: one)
 */

/**
 * @typedef {object} KubernetesManifests
 * @property {string} name the Job's
 * @property {string} startAt ISO time the pods start the load at
 * @property {Record<string, any>} job
 * @property {Record<string, any> | null} configMap null when the load reads no file
 * @property {number} waitS the timeout for kubectl wait
 * @property {string} cpu the CPU each pod asks for
 */

/**
 * A URL the pods cannot load for you: this machine, from a pod, is the pod.
 * @param {string} hostname as URL gives it (`[::1]` for IPv6)
 */
export function isLocalHost (hostname) {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '::1' || host === '0:0:0:0:0:0:0:1' || host === '0.0.0.0' || host === '::' || /^::ffff:127\./.test(host)
}

/**
 * A word of args as Kubernetes leaves it: it expands `$(VAR)` and turns
 * `$$` into `$`, so every `$` of the user's is doubled.
 * @param {string} word
 */
export function escapeArg (word) {
  return word.replace(/\$/g, '$$$$')
}

/**
 * The key of a file in the ConfigMap: the flag it is for, and the file's
 * extension (a requests file's decides how it is read).
 * @param {LoadFile} file
 */
export function fileKey ({ flag, file }) {
  const ext = extname(file).toLowerCase().replace(/[^.a-z0-9]/g, '')
  return `${flag}${ext}`
}

/** @param {number} now epoch ms */
export function jobName (now) {
  const iso = new Date(now).toISOString()
  return `dyno-load-${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`
}

/** @param {number} bytes */
function size (bytes) {
  return `${Math.ceil(bytes / 1024)} KiB`
}

/** @param {Buffer} content */
function isUtf8 (content) {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content)
    return true
  } catch {
    return false
  }
}

/**
 * The ConfigMap's data: text as it is, anything else in binaryData.
 * @param {LoadFile[]} files
 */
function configMapData (files) {
  /** @type {Record<string, string>} */
  const data = {}
  /** @type {Record<string, string>} */
  const binaryData = {}
  let total = 0
  for (const file of files) {
    const bytes = file.content.length
    if (bytes > CONFIGMAP_LIMIT_BYTES) throw dynoError('DYNO_BAD_KUBERNETES.fileTooLarge', { flag: file.flag, file: file.file, size: size(bytes) })
    if (isUtf8(file.content)) {
      data[fileKey(file)] = file.content.toString('utf8')
      total += bytes
    } else {
      binaryData[fileKey(file)] = file.content.toString('base64')
      total += Math.ceil(bytes / 3) * 4
    }
  }
  if (total > CONFIGMAP_LIMIT_BYTES) {
    throw dynoError('DYNO_BAD_KUBERNETES.filesTooLarge', { files: files.map((f) => f.file).join(', '), size: size(total) })
  }
  return { data, binaryData }
}

/**
 * The Job, and the ConfigMap of the files it reads.
 * @param {KubernetesPlan} plan
 * @returns {KubernetesManifests}
 */
export function kubernetesManifests (plan) {
  const { generators, namespace } = plan
  if (!Number.isSafeInteger(generators) || generators < 1 || generators > MAX_GENERATORS) {
    throw dynoError('DYNO_BAD_FLAG.aboveMax', { flag: '--kubernetes', max: MAX_GENERATORS, text: String(generators) })
  }
  const url = new URL(plan.url)
  if (isLocalHost(url.hostname)) throw dynoError('DYNO_BAD_KUBERNETES.localUrl', { url: plan.url })
  if (namespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace)) {
    throw dynoError('DYNO_BAD_KUBERNETES.namespace', { namespace: JSON.stringify(namespace) })
  }
  const name = jobName(plan.now)
  // A whole second, easy to read and to give again as --start-at.
  const startAtMs = plan.startAt ?? Math.ceil(plan.now / 1000) * 1000 + START_DELAY_S * 1000
  const startAt = new Date(startAtMs).toISOString()
  const labels = { 'app.kubernetes.io/name': 'dyno', 'app.kubernetes.io/component': 'load-generator', 'app.kubernetes.io/instance': name }
  const metadata = (/** @type {string} */ objectName) => ({ name: objectName, ...(namespace ? { namespace } : {}), labels: { ...labels } })

  const fileFlags = plan.files.flatMap((file) => [`--${file.flag}`, `${FILES_DIR}/${fileKey(file)}`])
  const args = [
    'load',
    '--segment', `$(${INDEX_VAR})/${generators}`,
    '--start-at', startAt,
    '--json',
    ...plan.flags.map(escapeArg),
    ...fileFlags,
    escapeArg(plan.url)
  ]

  let configMap = null
  if (plan.files.length > 0) {
    const { data, binaryData } = configMapData(plan.files)
    configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: metadata(`${name}-files`),
      ...(Object.keys(data).length > 0 ? { data } : {}),
      ...(Object.keys(binaryData).length > 0 ? { binaryData } : {})
    }
  }

  // A generator needs a core for each load thread, or it measures itself.
  const cpu = String(Math.max(1, plan.workers))
  const container = {
    name: 'dyno',
    image: plan.image,
    args,
    // Declared, not left to the Job controller: $(VAR) in args expands only
    // from variables the container declares.
    env: [{
      name: INDEX_VAR,
      valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } }
    }],
    resources: { requests: { cpu, memory: '256Mi' } },
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    ...(configMap ? { volumeMounts: [{ name: 'files', mountPath: FILES_DIR, readOnly: true }] } : {})
  }
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(name),
    spec: {
      completionMode: 'Indexed',
      completions: generators,
      parallelism: generators,
      // A generator that failed must not make its share again later, at another time.
      backoffLimit: 0,
      ttlSecondsAfterFinished: KEEP_FINISHED_S,
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: NODE_UID, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [container],
          ...(configMap ? { volumes: [{ name: 'files', configMap: { name: configMap.metadata.name } }] } : {})
        }
      }
    }
  }
  const untilStart = Math.max(0, (startAtMs - plan.now) / 1000)
  const waitS = plan.durationS === null
    ? Math.ceil(untilStart) + WAIT_UNBOUNDED_S
    : Math.ceil(untilStart + plan.durationS + plan.timeoutS + WAIT_MARGIN_S)
  return { name, startAt, job, configMap, waitS, cpu }
}

/**
 * The shell commands that run the load and collect its result.
 * @param {KubernetesManifests} manifests
 * @param {{ namespace?: string, file: string, failOn?: readonly string[] }} at the file the manifests are in,
 *   and the thresholds the merge judges on the whole
 */
export function kubernetesCommands ({ name, waitS }, { namespace, file, failOn = [] }) {
  const ns = namespace ? ` -n ${namespace}` : ''
  return [
    `kubectl apply -f ${file}`,
    `kubectl wait${ns} --for=condition=complete job/${name} --timeout=${waitS}s`,
    `for pod in $(kubectl get pods${ns} -l job-name=${name} -o name); do kubectl logs${ns} "$pod" > "\${pod#pod/}.json"; done`,
    `dyno merge${failOn.map((t) => ` --fail-on '${t.replace(/'/g, "'\\''")}'`).join('')} ${name}-*.json`
  ]
}
