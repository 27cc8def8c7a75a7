import { Document, isMap, isScalar } from 'yaml'

/**
 * The manifests as YAML documents, the ConfigMap first (the Job mounts it).
 * @param {import('./kubernetes.js').KubernetesManifests} manifests
 */
export function kubernetesYaml ({ job, configMap }) {
  const jobDoc = new Document(job)
  commentKey(jobDoc, ['spec'], 'backoffLimit', 'A generator that failed must not make its share again later, at another time.')
  commentKey(jobDoc, ['spec', 'template', 'spec', 'containers', 0], 'resources',
    'A generator needs a core for each load thread (-w, at least one), or it measures itself; no CPU limit, or a throttled generator would too.')
  const docs = configMap ? [new Document(configMap), jobDoc] : [jobDoc]
  return docs.map((doc) => '---\n' + doc.toString({ lineWidth: 0 })).join('')
}

/**
 * A comment above a key of a map in a document.
 * @param {Document} doc @param {(string | number)[]} path to the map @param {string} key @param {string} comment
 */
function commentKey (doc, path, key, comment) {
  const map = doc.getIn(path, true)
  if (!isMap(map)) return
  const pair = map.items.find((item) => isScalar(item.key) && item.key.value === key)
  if (pair && isScalar(pair.key)) pair.key.commentBefore = ` ${comment}`
}
