// Validates rendered manifests (`kubectl kustomize` output) offline:
//   1. every object against its schema: kubernetes-models for the Kubernetes API,
//      @kubernetes-models/prometheus-operator for PodMonitor, ServiceMonitor and PrometheusRule;
//   2. the deployment policy of docs/deploy.md ("Security model"), which the schemas cannot state:
//      Kubernetes' OpenAPI schemas accept unknown fields, so a misspelt `readOnlyRootFilesystem`
//      would pass step 1 and only fail here; and what each component promises once composed.
//
// usage: node validate-manifests.mjs POLICY RENDERED.yaml
//   POLICY: `npd` (node-problem-detector's own kustomization with the rocewatch component), or
//   `core` plus the components the render uses, joined by commas, e.g.
//   core,verbs,kube-rbac-proxy,kube-prometheus-stack,node-problem-detector (deploy/kubernetes/base
//   is core,kube-rbac-proxy)
// Prints one line per problem and exits 1 if there is any; 0 and a summary line otherwise.

import {readFileSync} from 'node:fs';
import {parseAllDocuments} from 'yaml';

const [policy, renderedPath] = process.argv.slice(2);
const components =
    ['verbs', 'kube-rbac-proxy', 'kube-prometheus-stack', 'node-problem-detector', 'job-awareness'];
// The capabilities of the rocewatch container (docs/deploy.md, "Privileges, measured").
const kDaemonCapabilities = ['NET_ADMIN', 'NET_RAW'];
const parts = (policy ?? '').split(',');
const valid = policy === 'npd' ||
    (parts[0] === 'core' && parts.slice(1).every((p) => components.includes(p)));
if (!valid || !renderedPath) {
  console.error(`usage: validate-manifests.mjs npd|core[,${components.join('|')}...] RENDERED.yaml`);
  process.exit(2);
}
const uses = (component) => parts.includes(component);

const problems = [];
const problem = (subject, message) => problems.push(`${subject}: ${message}`);
const expect = (condition, subject, message) => {
  if (!condition) problem(subject, message);
};

// ---- 1. Schemas --------------------------------------------------------------------------------

function parseDocuments(path) {
  const objects = [];
  for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
    for (const error of doc.errors) problem(path, `YAML: ${error.message}`);
    const object = doc.toJS();
    if (object !== null && object !== undefined) objects.push(object);
  }
  return objects;
}

// The module of the model class for apiVersion/kind, e.g. apps/v1 DaemonSet.
function modelModule(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === 'monitoring.coreos.com') {
    return `@kubernetes-models/prometheus-operator/${group}/${version}/${kind}`;
  }
  return group === '' ? `kubernetes-models/${version}/${kind}` :
                        `kubernetes-models/${group}/${version}/${kind}`;
}

async function validateSchema(object) {
  const subject = `${object.kind}/${object.metadata?.name}`;
  let Model;
  try {
    Model = (await import(modelModule(object.apiVersion, object.kind)))[object.kind];
  } catch {
    problem(subject, `no schema for ${object.apiVersion} ${object.kind}`);
    return;
  }
  try {
    new Model(object).validate();
  } catch (error) {
    problem(subject, `schema: ${error.message}`);
  }
}

// ---- 2. Policy ---------------------------------------------------------------------------------

const find = (objects, kind, name) =>
    objects.find((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));

function argValue(args, flag) {
  const prefix = `${flag}=`;
  const arg = (args ?? []).find((a) => a.startsWith(prefix));
  return arg === undefined ? undefined : arg.slice(prefix.length);
}

// A rocewatch setting: the flag in args wins over its ROCEWATCH_* variable, as in the binary.
function setting(container, flag, variable) {
  const fromArgs = argValue(container.args, flag);
  if (fromArgs !== undefined) return fromArgs;
  return (container.env ?? []).find((e) => e.name === variable)?.value;
}

// The volume a container mounts at `mountPath`, with the mount itself.
function mountAt(pod, container, mountPath) {
  const mount = (container.volumeMounts ?? []).find((m) => m.mountPath === mountPath);
  const volume = mount && (pod.volumes ?? []).find((v) => v.name === mount.name);
  return {mount, volume};
}

const matches = (selector, labels) =>
    Object.entries(selector ?? {}).every(([k, v]) => (labels ?? {})[k] === v);

function checkUnprivileged(subject, container, allowedCapabilities) {
  const sc = container.securityContext ?? {};
  expect(sc.allowPrivilegeEscalation === false, subject, 'allowPrivilegeEscalation must be false');
  expect(sc.readOnlyRootFilesystem === true, subject, 'readOnlyRootFilesystem must be true');
  expect(sc.privileged !== true, subject, 'must not be privileged');
  expect((sc.capabilities?.drop ?? []).includes('ALL'), subject, 'must drop ALL capabilities');
  for (const cap of sc.capabilities?.add ?? []) {
    expect(allowedCapabilities.includes(cap), subject, `capability ${cap} is not allowed`);
  }
}

// Kubernetes expands $(NAME) in an env value only from variables defined before it.
function checkEnvReferences(subject, container) {
  const defined = new Set();
  for (const e of container.env ?? []) {
    for (const [, name] of String(e.value ?? '').matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)) {
      expect(defined.has(name), subject, `env ${e.name} uses $(${name}) before it is defined`);
    }
    defined.add(e.name);
  }
  for (const arg of container.args ?? []) {
    for (const [, name] of arg.matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)) {
      expect(defined.has(name), subject, `argument ${arg} uses $(${name}), which is not defined`);
    }
  }
}

const hostIpFromDownwardApi = (container) =>
    (container.env ?? []).find((e) => e.name === 'HOST_IP')?.valueFrom?.fieldRef?.fieldPath ===
    'status.hostIP';

function checkRocewatchDaemonSet(objects) {
  const ds = find(objects, 'DaemonSet', 'rocewatch');
  if (!ds) return problem('DaemonSet/rocewatch', 'missing');
  const subject = 'DaemonSet/rocewatch';
  const pod = ds.spec.template.spec;
  expect(
      pod.hostNetwork === true, subject,
      'hostNetwork must be true (netlink and netdevs are per netns)');
  expect(!pod.hostPID && !pod.hostIPC, subject, 'must not share the host PID or IPC namespace');
  expect(
      pod.automountServiceAccountToken === false, subject,
      'must not mount a service account token');
  expect(
      pod.priorityClassName === 'system-node-critical', subject,
      'priorityClassName must be system-node-critical');
  expect(
      (pod.tolerations ?? []).some((t) => t.operator === 'Exists' && !t.key && !t.effect),
      subject,
      'must tolerate every taint (operator: Exists without key or effect)',
  );
  // RDMA nodes only: every term of the required node affinity names a node label.
  const terms =
      pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
      [];
  expect(
      terms.length > 0 &&
          terms.every(
              (t) => (t.matchExpressions ?? []).some(
                  (m) => m.key && ['In', 'Exists'].includes(m.operator))),
      subject, 'must keep to RDMA nodes (required node affinity on an RDMA node label)');
  // uid 0 with every capability dropped but the ones docs/deploy.md's privilege table lists
  // (tests/e2e/identity_test.sh runs the binary under exactly this identity): root-owned sockets and
  // files by their owner bits, no DAC override, no ptrace unless the job-awareness component adds it.
  expect(
      pod.securityContext?.runAsUser === 0 && pod.securityContext?.runAsGroup === 0, subject,
      'pod runAsUser and runAsGroup must be 0 (its capabilities are dropped per container)');
  expect(
      pod.securityContext?.seccompProfile?.type === 'RuntimeDefault', subject,
      'seccomp must be RuntimeDefault');

  const container = pod.containers.find((c) => c.name === 'rocewatch');
  if (!container) return problem(subject, 'no container named rocewatch');
  const cs = `${subject} container rocewatch`;
  checkUnprivileged(cs, container, uses('job-awareness') ? [...kDaemonCapabilities, 'SYS_PTRACE'] :
                                                           kDaemonCapabilities);
  for (const cap of kDaemonCapabilities) {
    expect(
        (container.securityContext?.capabilities?.add ?? []).includes(cap), cs,
        `capability ${cap} must be added (docs/deploy.md, "Privileges, measured")`);
  }
  expect(
      uses('job-awareness') ===
          (container.securityContext?.capabilities?.add ?? []).includes('SYS_PTRACE'),
      cs, 'SYS_PTRACE comes with the job-awareness component, and only with it');
  checkEnvReferences(cs, container);
  const args = container.args ?? [];
  expect(args[0] === 'run', cs, 'first argument must be `run`');
  // The environment, not an argument: `kubectl exec ... rocewatch diagnose` reads the host too.
  expect(
      (container.env ?? []).some((e) => e.name === 'ROCEWATCH_HOST_ROOT' && e.value === '/host'),
      cs, 'ROCEWATCH_HOST_ROOT=/host must be in the environment (diagnose reads it too)');
  expect(
      argValue(args, '--host-root') === undefined, cs,
      '--host-root as an argument would apply to `run` only: use ROCEWATCH_HOST_ROOT');
  expect(hostIpFromDownwardApi(container), cs, 'HOST_IP must come from status.hostIP');
  const listen = setting(container, '--listen', 'ROCEWATCH_LISTEN') ?? '';
  const port = Number(listen.split(':').pop());
  if (uses('kube-rbac-proxy')) {
    expect(
        /^127\.0\.0\.1:\d+$/.test(listen), cs,
        `behind kube-rbac-proxy rocewatch must listen on loopback, not "${listen}"`);
    expect(
        (container.ports ?? []).every((p) => !p.hostPort), cs,
        'behind kube-rbac-proxy rocewatch publishes no port');
    for (const [name, probe] of [['liveness', container.livenessProbe],
                                 ['readiness', container.readinessProbe]]) {
      expect(
          probe?.httpGet?.host === '127.0.0.1' && probe.httpGet.port === port, cs,
          `the ${name} probe must reach the loopback listener 127.0.0.1:${port}`);
    }
    checkKubeRbacProxy(objects, pod, port);
  } else {
    expect(
        /^\$\(HOST_IP\):\d+$/.test(listen), cs,
        `--listen must bind $(HOST_IP):PORT, not "${listen}"`);
    expect(
        (container.ports ?? []).some((p) => p.name === 'metrics' && p.containerPort === port), cs,
        'port `metrics` must be the --listen port');
  }
  expect(
      container.livenessProbe?.httpGet?.path === '/healthz', cs,
      'liveness probe must GET /healthz');
  expect(
      container.readinessProbe?.httpGet?.path === '/metrics', cs,
      'readiness probe must GET /metrics');
  expect(
      container.resources?.requests?.cpu && container.resources?.requests?.memory, cs,
      'needs cpu and memory requests');
  expect(container.resources?.limits?.memory, cs, 'needs a memory limit');
  expect(
      !mountAt(pod, container, '/var/run/secrets/kubernetes.io/serviceaccount').mount, cs,
      'rocewatch itself must not get a service account token');

  const root = mountAt(pod, container, '/host');
  expect(root.volume?.hostPath?.path === '/', cs, 'the host root must be mounted at /host');
  expect(root.mount?.readOnly === true, cs, 'the host root must be mounted read-only');
  const podResources = mountAt(pod, container, '/var/lib/kubelet/pod-resources');
  expect(
      podResources.volume?.hostPath?.path === '/var/lib/kubelet/pod-resources' &&
          podResources.mount?.readOnly === true,
      cs, 'the kubelet pod-resources directory must be mounted read-only');
  const kubeletSocket = setting(container, '--kubelet-socket', 'ROCEWATCH_KUBELET_SOCKET') ?? '';
  expect(
      kubeletSocket.startsWith('/var/lib/kubelet/pod-resources/'), cs,
      `the kubelet socket (${kubeletSocket}) must be the one in the pod-resources mount`);
  const stateFile = setting(container, '--state-file', 'ROCEWATCH_STATE_FILE') ?? '';
  const stateDir = stateFile.slice(0, stateFile.lastIndexOf('/'));
  const state = mountAt(pod, container, stateDir);
  expect(
      state.volume?.hostPath?.path === '/var/lib/rocewatch', cs,
      `the state file (${stateFile}) must live on the hostPath /var/lib/rocewatch`);
  expect(state.mount && state.mount.readOnly !== true, cs, 'the state directory must be writable');

  expect(
      (pod.initContainers ?? []).length === 0, subject,
      'needs no init container (uid 0 owns the state directory the kubelet creates)');
  const apiSocket = mountAt(pod, container, '/run/rocewatch');
  expect(
      apiSocket.volume?.hostPath?.path === '/run/rocewatch' && apiSocket.mount?.readOnly !== true,
      cs, 'the local API socket directory /run/rocewatch must be a writable hostPath mount');

  const gidSource = setting(container, '--gid-source', 'ROCEWATCH_GID_SOURCE');
  const rdmaLimits = Object.entries(container.resources?.limits ?? {})
                         .filter(([name]) => name.startsWith('rdma/'));
  const rdmaRequests = Object.entries(container.resources?.requests ?? {})
                           .filter(([name]) => name.startsWith('rdma/'));
  if (uses('verbs')) {
    expect(gidSource === 'verbs', cs, 'the verbs component must set the GID source to verbs');
    // A node without the device plugin's resource would hold the pod Pending forever.
    expect(
        terms.length > 0 &&
            terms.every((t) => (t.matchExpressions ?? []).some(
                (m) => m.key === 'rocewatch.io/verbs' && m.operator === 'In' &&
                    (m.values ?? []).includes('true'))),
        subject, 'the verbs component must keep to nodes labelled rocewatch.io/verbs=true');
    expect(
        rdmaLimits.length === 1 && String(rdmaLimits[0][1]) === '1' &&
            rdmaRequests.length === 1 && rdmaRequests[0][0] === rdmaLimits[0][0],
        cs, 'the verbs component must request and limit one rdma/ device');
  } else {
    // sysfs reads GIDs with references the kernel may race (the observer effect): never forced.
    expect(
        gidSource === undefined || gidSource === 'auto', cs,
        `the GID source must be left to auto, not "${gidSource}"`);
    expect(rdmaLimits.length === 0, cs, 'without the verbs component no RDMA device is needed');
  }

  if (uses('kube-rbac-proxy')) {
    expect(!find(objects, 'PodMonitor'), 'PodMonitor', 'would scrape around kube-rbac-proxy');
  } else {
    const monitor = find(objects, 'PodMonitor', 'rocewatch');
    if (!monitor) return problem('PodMonitor/rocewatch', 'missing');
    expect(
        matches(monitor.spec.selector?.matchLabels, ds.spec.template.metadata.labels),
        'PodMonitor/rocewatch', 'selector does not match the DaemonSet\'s pods');
    expect(
        monitor.spec.podMetricsEndpoints?.some((e) => e.port === 'metrics'),
        'PodMonitor/rocewatch', 'must scrape the port named metrics');
  }
}

// kube-rbac-proxy: TLS on the node's address, TokenReview + SubjectAccessReview, upstream on
// loopback, a token for the proxy only, and a ServiceMonitor that scrapes it with a token.
function checkKubeRbacProxy(objects, pod, upstreamPort) {
  const subject = 'DaemonSet/rocewatch container kube-rbac-proxy';
  const proxy = pod.containers.find((c) => c.name === 'kube-rbac-proxy');
  if (!proxy) return problem(subject, 'missing');
  checkUnprivileged(subject, proxy, []);
  checkEnvReferences(subject, proxy);
  expect(hostIpFromDownwardApi(proxy), subject, 'HOST_IP must come from status.hostIP');
  const secure = argValue(proxy.args, '--secure-listen-address') ?? '';
  expect(
      /^\$\(HOST_IP\):\d+$/.test(secure), subject,
      `--secure-listen-address must be $(HOST_IP):PORT, not "${secure}"`);
  const port = Number(secure.split(':').pop());
  const https = (proxy.ports ?? []).find((p) => p.name === 'https');
  expect(
      https?.containerPort === port && https?.hostPort === port, subject,
      'port `https` must be the --secure-listen-address port, published on the host');
  expect(
      argValue(proxy.args, '--upstream') === `http://127.0.0.1:${upstreamPort}/`, subject,
      `--upstream must be rocewatch's loopback listener http://127.0.0.1:${upstreamPort}/`);
  const allowed = (argValue(proxy.args, '--allow-paths') ?? '').split(',');
  expect(allowed.includes('/metrics'), subject, '--allow-paths must include /metrics');
  expect(
      !allowed.includes('/*') && !allowed.includes('*'), subject,
      '--allow-paths must name paths, not everything');
  const token = mountAt(pod, proxy, '/var/run/secrets/kubernetes.io/serviceaccount');
  expect(
      token.mount?.readOnly === true &&
          token.volume?.projected?.sources?.some((s) => s.serviceAccountToken),
      subject, 'needs a projected service account token (its TokenReview credentials)');

  const binding = objects.find(
      (o) => o.kind === 'ClusterRoleBinding' &&
          (o.subjects ?? []).some(
              (s) => s.kind === 'ServiceAccount' && s.name === pod.serviceAccountName));
  const role = binding && find(objects, 'ClusterRole', binding.roleRef?.name);
  const allows = (group, resource) => (role?.rules ?? []).some(
      (r) => r.apiGroups?.includes(group) && r.resources?.includes(resource) &&
          r.verbs?.includes('create'));
  expect(
      allows('authentication.k8s.io', 'tokenreviews') &&
          allows('authorization.k8s.io', 'subjectaccessreviews'),
      'ClusterRoleBinding', `service account ${pod.serviceAccountName} must be able to create ` +
          'TokenReviews and SubjectAccessReviews');
  const namespace = find(objects, 'Namespace')?.metadata?.name;
  expect(
      binding?.subjects?.every((s) => s.kind !== 'ServiceAccount' || s.namespace === namespace),
      'ClusterRoleBinding', `must bind the service account of namespace ${namespace}`);

  const podLabels = find(objects, 'DaemonSet', 'rocewatch').spec.template.metadata.labels;
  const service = objects.find(
      (o) => o.kind === 'Service' && matches(o.spec?.selector, podLabels) &&
          o.spec.ports?.some((p) => p.targetPort === 'https' || p.targetPort === port));
  if (!service) return problem('Service', 'no Service selects the pods\' https port');
  const monitor = objects.find(
      (o) => o.kind === 'ServiceMonitor' &&
          matches(o.spec?.selector?.matchLabels, service.metadata.labels));
  if (!monitor) return problem('ServiceMonitor', `none selects Service/${service.metadata.name}`);
  const ms = `ServiceMonitor/${monitor.metadata.name}`;
  const portName = service.spec.ports.find((p) => p.targetPort === 'https' || p.targetPort === port).name;
  const endpoint = (monitor.spec.endpoints ?? []).find((e) => e.port === portName);
  if (!endpoint) return problem(ms, `no endpoint scrapes port ${portName}`);
  expect(endpoint.scheme === 'https', ms, 'must scrape over https');
  expect(
      endpoint.bearerTokenFile || endpoint.authorization?.credentials ||
          endpoint.bearerTokenSecret?.name,
      ms, 'must send a bearer token (kube-rbac-proxy refuses anonymous scrapes)');
  expect(endpoint.path === '/metrics', ms, 'must scrape /metrics');
}

function checkKubePrometheusStack(objects) {
  for (const o of objects.filter((o) => ['PodMonitor', 'ServiceMonitor', 'PrometheusRule'].includes(o.kind))) {
    expect(
        o.metadata?.labels?.release, `${o.kind}/${o.metadata?.name}`,
        'needs the Helm release label (list kube-prometheus-stack after the component adding it)');
  }
  const dashboards = objects.filter(
      (o) => o.kind === 'ConfigMap' && o.metadata?.labels?.grafana_dashboard === '1');
  expect(dashboards.length === 1, 'ConfigMap', 'needs one ConfigMap labelled grafana_dashboard=1');
  for (const cm of dashboards) {
    for (const [file, text] of Object.entries(cm.data ?? {})) {
      try {
        const dashboard = JSON.parse(text);
        expect(
            dashboard.uid && Array.isArray(dashboard.panels) && dashboard.panels.length > 0,
            `ConfigMap/${cm.metadata.name} ${file}`, 'is not a Grafana dashboard with panels');
      } catch (error) {
        problem(`ConfigMap/${cm.metadata.name} ${file}`, `not JSON: ${error.message}`);
      }
    }
  }
}

const clusterScoped = ['Namespace', 'ClusterRole', 'ClusterRoleBinding'];
// What the node-problem-detector component adds to NPD's own DaemonSet, in NPD's namespace.
const npdObject = (o) => (o.kind === 'DaemonSet' && o.metadata?.name === 'node-problem-detector') ||
    (o.kind === 'ConfigMap' && o.metadata?.name?.startsWith('rocewatch-npd-config'));

function checkRocewatchObjects(objects) {
  const namespace = find(objects, 'Namespace');
  expect(namespace, 'Namespace', 'missing');
  for (const o of objects.filter((o) => !clusterScoped.includes(o.kind) && !npdObject(o))) {
    expect(
        o.metadata?.namespace === namespace?.metadata?.name, `${o.kind}/${o.metadata?.name}`,
        'must live in the rocewatch namespace');
  }
  expect(
      find(objects, 'ServiceAccount')?.automountServiceAccountToken === false, 'ServiceAccount',
      'automountServiceAccountToken must be false');
  expect(find(objects, 'PrometheusRule', 'rocewatch'), 'PrometheusRule/rocewatch', 'missing');
  checkRocewatchDaemonSet(objects);
  if (uses('kube-prometheus-stack')) checkKubePrometheusStack(objects);
  if (uses('node-problem-detector')) checkNpdObjects(objects);
}

// Go's time.ParseDuration for the simple forms NPD configs use ("30s", "1m30s", "500ms").
function goDurationMs(text) {
  const units = {ms: 1, s: 1000, m: 60000, h: 3600000};
  const parts = [...String(text).matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return NaN;
  return parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]], 0);
}

function checkNpdObjects(objects) {
  const subject = 'DaemonSet/node-problem-detector';
  const ds = find(objects, 'DaemonSet', 'node-problem-detector');
  if (!ds) return problem(subject, 'missing');
  const pod = ds.spec.template.spec;
  const container = pod.containers[0];
  expect(pod.hostNetwork === true, subject, 'diagnose needs the host network namespace');
  const root = mountAt(pod, container, '/host');
  expect(
      root.volume?.hostPath?.path === '/' && root.mount?.readOnly === true, subject,
      'the host root must be mounted read-only at /host');

  // The daemon is asked on its local socket: the TCP port may be TLS behind kube-rbac-proxy.
  const daemon = (container.env ?? []).find((e) => e.name === 'ROCEWATCH_DAEMON')?.value ?? '';
  expect(
      daemon === 'unix:/run/rocewatch/rocewatch.sock', subject,
      `ROCEWATCH_DAEMON must be the daemon's local socket, not "${daemon}"`);
  const socketDir = mountAt(pod, container, '/run/rocewatch');
  expect(
      socketDir.volume?.hostPath?.path === '/run/rocewatch', subject,
      'the daemon\'s socket directory /run/rocewatch must be mounted from the host');

  const flags = [...(container.command ?? []), ...(container.args ?? [])];
  const configPath = argValue(flags, '--config.custom-plugin-monitor');
  if (!configPath) return problem(subject, 'no --config.custom-plugin-monitor flag');
  const dir = configPath.slice(0, configPath.lastIndexOf('/'));
  const file = configPath.slice(dir.length + 1);
  const configVolume = mountAt(pod, container, dir).volume;
  const configMap = configVolume && find(objects, 'ConfigMap', configVolume.configMap?.name);
  if (!configMap?.data?.[file])
    return problem(subject, `${configPath} is not in a mounted ConfigMap`);

  const cs = `ConfigMap/${configMap.metadata.name} ${file}`;
  let config;
  try {
    config = JSON.parse(configMap.data[file]);
  } catch (error) {
    return problem(cs, `not JSON: ${error.message}`);
  }
  expect(config.plugin === 'custom', cs, 'plugin must be "custom"');
  const globalTimeout = goDurationMs(config.pluginConfig?.timeout);
  expect(
      goDurationMs(config.pluginConfig?.invoke_interval) > 0, cs,
      'invoke_interval must be a Go duration');
  expect(globalTimeout > 0, cs, 'timeout must be a Go duration');
  expect(
      config.pluginConfig?.max_output_length >= 80, cs,
      'max_output_length must leave room for the message');
  const conditions = (config.conditions ?? []).map((c) => c.type);
  expect(
      conditions.includes('RDMANetworkProblem'), cs,
      'needs the default RDMANetworkProblem condition');
  const rule = (config.rules ?? []).find((r) => r.condition === 'RDMANetworkProblem');
  if (!rule) return problem(cs, 'no rule sets RDMANetworkProblem');
  expect(
      rule.type === 'permanent', cs,
      'the RDMANetworkProblem rule must be permanent (a NodeCondition)');
  expect(
      rule.path === '/usr/local/bin/rocewatch', cs, 'the rule must run /usr/local/bin/rocewatch');
  expect(
      rule.args?.[0] === 'diagnose' && rule.args.includes('--npd'), cs,
      'the rule must run `diagnose --npd`');
  expect(
      argValue(rule.args, '--host-root') === '/host', cs,
      'the rule must read the host root at /host');
  expect(
      goDurationMs(rule.timeout) > 0 && goDurationMs(rule.timeout) <= globalTimeout, cs,
      'the rule timeout must be a Go duration within the global timeout (NPD refuses it otherwise)');
}

// ---- main --------------------------------------------------------------------------------------

const objects = parseDocuments(renderedPath);
expect(objects.length > 0, renderedPath, 'no objects');
for (const object of objects) await validateSchema(object);
if (policy === 'npd')
  checkNpdObjects(objects);
else
  checkRocewatchObjects(objects);

for (const line of problems) console.log(line);
if (problems.length > 0) process.exit(1);
console.log(
    `${policy}: ${objects.length} objects valid (${objects.map((o) => o.kind).join(', ')})`);
