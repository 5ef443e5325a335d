// Validates rendered manifests (`kubectl kustomize` output) offline:
//   1. every object against its schema: kubernetes-models for the Kubernetes API,
//      @kubernetes-models/prometheus-operator for PodMonitor and PrometheusRule;
//   2. the deployment policy of docs/deploy.md ("Security model"), which the schemas cannot state:
//      Kubernetes' OpenAPI schemas accept unknown fields, so a misspelt `readOnlyRootFilesystem`
//      would pass step 1 and only fail here.
//
// usage: node validate-manifests.mjs POLICY RENDERED.yaml
//   POLICY: base | verbs | kube-prometheus-stack | npd
// Prints one line per problem and exits 1 if there is any; 0 and a summary line otherwise.

import {readFileSync} from 'node:fs';
import {parseAllDocuments} from 'yaml';

const [policy, renderedPath] = process.argv.slice(2);
const policies = ['base', 'verbs', 'kube-prometheus-stack', 'npd'];
if (!policies.includes(policy) || !renderedPath) {
  console.error(`usage: validate-manifests.mjs ${policies.join('|')} RENDERED.yaml`);
  process.exit(2);
}

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

// The volume a container mounts at `mountPath`, with the mount itself.
function mountAt(pod, container, mountPath) {
  const mount = (container.volumeMounts ?? []).find((m) => m.mountPath === mountPath);
  const volume = mount && (pod.volumes ?? []).find((v) => v.name === mount.name);
  return {mount, volume};
}

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

function checkRocewatchDaemonSet(objects, overlay) {
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
  expect(pod.securityContext?.runAsNonRoot === true, subject, 'pod runAsNonRoot must be true');
  expect(
      Number.isInteger(pod.securityContext?.runAsUser) && pod.securityContext.runAsUser > 0,
      subject, 'pod runAsUser must be a fixed non-zero uid');
  expect(
      pod.securityContext?.seccompProfile?.type === 'RuntimeDefault', subject,
      'seccomp must be RuntimeDefault');

  const container = pod.containers.find((c) => c.name === 'rocewatch');
  if (!container) return problem(subject, 'no container named rocewatch');
  const cs = `${subject} container rocewatch`;
  checkUnprivileged(cs, container, []);
  const args = container.args ?? [];
  expect(args[0] === 'run', cs, 'first argument must be `run`');
  expect(argValue(args, '--host-root') === '/host', cs, '--host-root must be /host');
  const listen = argValue(args, '--listen') ?? '';
  expect(
      /^\$\(HOST_IP\):\d+$/.test(listen), cs,
      `--listen must bind $(HOST_IP):PORT, not "${listen}"`);
  const hostIp = (container.env ?? []).find((e) => e.name === 'HOST_IP');
  expect(
      hostIp?.valueFrom?.fieldRef?.fieldPath === 'status.hostIP', cs,
      'HOST_IP must come from status.hostIP');
  const port = Number(listen.split(':').pop());
  expect(
      (container.ports ?? []).some((p) => p.name === 'metrics' && p.containerPort === port), cs,
      'port `metrics` must be the --listen port');
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

  const root = mountAt(pod, container, '/host');
  expect(root.volume?.hostPath?.path === '/', cs, 'the host root must be mounted at /host');
  expect(root.mount?.readOnly === true, cs, 'the host root must be mounted read-only');
  const stateFile = argValue(args, '--state-file') ?? '';
  const stateDir = stateFile.slice(0, stateFile.lastIndexOf('/'));
  const state = mountAt(pod, container, stateDir);
  expect(
      state.volume?.hostPath?.path === '/var/lib/rocewatch', cs,
      `--state-file (${stateFile}) must live on the hostPath /var/lib/rocewatch`);
  expect(state.mount && state.mount.readOnly !== true, cs, 'the state directory must be writable');

  const owner = (pod.initContainers ??
                 []).find((c) => (c.volumeMounts ?? []).some((m) => m.name === state.mount?.name));
  if (!owner) {
    problem(subject, 'no init container hands the state directory to the daemon\'s uid');
  } else {
    checkUnprivileged(`${subject} initContainer ${owner.name}`, owner, ['CHOWN', 'FOWNER']);
    expect(
        owner.command?.includes(String(pod.securityContext?.runAsUser)),
        `${subject} initContainer ${owner.name}`,
        'must give the state directory to the pod\'s runAsUser');
  }

  const rdma = Object.entries(container.resources?.limits ?? {})
                   .filter(([name]) => name.startsWith('rdma/'));
  if (overlay === 'verbs') {
    expect(
        argValue(args, '--gid-source') === 'verbs', cs,
        'the verbs overlay must pass --gid-source=verbs');
    expect(
        rdma.length === 1 && String(rdma[0][1]) === '1', cs,
        'the verbs overlay must request one rdma/ device');
  } else {
    expect(argValue(args, '--gid-source') === 'sysfs', cs, 'the base reads GIDs from sysfs');
    expect(rdma.length === 0, cs, 'the base needs no RDMA device');
  }

  const monitor = find(objects, 'PodMonitor', 'rocewatch');
  if (!monitor) return problem('PodMonitor/rocewatch', 'missing');
  const labels = ds.spec.template.metadata.labels ?? {};
  expect(
      Object.entries(monitor.spec.selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v),
      'PodMonitor/rocewatch', 'selector does not match the DaemonSet\'s pods');
  expect(
      monitor.spec.podMetricsEndpoints?.some((e) => e.port === 'metrics'), 'PodMonitor/rocewatch',
      'must scrape the port named metrics');
}

function checkRocewatchObjects(objects, overlay) {
  const namespace = find(objects, 'Namespace');
  expect(namespace, 'Namespace', 'missing');
  for (const o of objects.filter((o) => o.kind !== 'Namespace')) {
    expect(
        o.metadata?.namespace === namespace?.metadata?.name, `${o.kind}/${o.metadata?.name}`,
        'must live in the rocewatch namespace');
  }
  expect(
      find(objects, 'ServiceAccount')?.automountServiceAccountToken === false, 'ServiceAccount',
      'automountServiceAccountToken must be false');
  expect(find(objects, 'PrometheusRule', 'rocewatch'), 'PrometheusRule/rocewatch', 'missing');
  checkRocewatchDaemonSet(objects, overlay);
  if (overlay === 'kube-prometheus-stack') {
    for (const kind of ['PodMonitor', 'PrometheusRule']) {
      expect(find(objects, kind)?.metadata?.labels?.release, kind, 'needs the Helm release label');
    }
  }
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
  checkRocewatchObjects(objects, policy);

for (const line of problems) console.log(line);
if (problems.length > 0) process.exit(1);
console.log(
    `${policy}: ${objects.length} objects valid (${objects.map((o) => o.kind).join(', ')})`);
