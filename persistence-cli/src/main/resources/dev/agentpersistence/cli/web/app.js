'use strict';
// The inspector's page: hash routes over the read-only JSON API of InspectorServer. Stored text is
// only ever inserted as text (never as HTML).

const view = document.getElementById('view');
const crumbs = document.getElementById('crumbs');

function el(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') element.className = value;
    else if (name.startsWith('on')) element.addEventListener(name.substring(2), value);
    else element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

async function api(call, parameters) {
  const query = new URLSearchParams(parameters || {}).toString();
  const response = await fetch('/api/' + call + (query ? '?' + query : ''));
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

const enc = encodeURIComponent;
const agentHash = agent => '#/agent/' + enc(agent);
const checkpointHash = (agent, ref) => '#/checkpoint/' + enc(agent) + '/' + enc(ref);
const diffHash = (agent, from, to) => '#/diff/' + enc(agent) + '/' + enc(from) + '/' + enc(to);

function bytes(count) {
  if (count === undefined) return '-';
  if (count < 1024) return count + ' B';
  const units = ['KiB', 'MiB', 'GiB'];
  let value = count, unit = -1;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return value.toFixed(1) + ' ' + units[unit];
}

// A size bar; its width is set through the style object, which the page's Content-Security-Policy allows.
function bar(fraction) {
  const element = el('span', { class: 'bar' });
  element.style.width = Math.round(120 * fraction) + 'px';
  return element;
}

function setCrumbs(...links) {
  crumbs.replaceChildren(el('a', { href: '#/' }, 'Agents'), ...links.flatMap(link => [' / ', link]));
}

// Absent parts (null, undefined) are left out: replaceChildren would insert them as the text "null".
function show(name, ...content) {
  view.replaceChildren(...content.filter(part => part !== null && part !== undefined));
  view.dataset.ready = name;
}

async function agentsPage() {
  setCrumbs();
  const agents = await api('agents');
  const max = Math.max(1, ...agents.map(agent => agent.bytes || 0));
  show('agents', el('h1', {}, 'Agents'), agents.length === 0 ? el('p', {}, 'No agents in this store.') :
    el('table', { id: 'agents' },
      el('thead', {}, el('tr', {}, ['Agent', 'Kind', 'Checkpoints', 'Size', '', 'Latest', 'Node', 'Created'].map(h => el('th', {}, h)))),
      el('tbody', {}, agents.map(agent => el('tr', {},
        el('td', {}, el('a', { href: agentHash(agent.agentId), class: 'agent-link' }, agent.agentId)),
        el('td', { class: 'kind' }, agent.kind || 'plain'),
        el('td', { class: 'num' }, agent.checkpoints),
        el('td', { class: 'num' }, bytes(agent.bytes)),
        el('td', {}, bar((agent.bytes || 0) / max)),
        el('td', { class: 'num' }, agent.latestVersion === undefined ? '-'
          : el('a', { href: checkpointHash(agent.agentId, agent.latestVersion) }, agent.latestVersion)),
        el('td', { class: 'mono' }, agent.latestNodeId || '-'),
        el('td', { class: 'mono' }, agent.latestCreatedAt || '-'))))));
}

async function timelinePage(agent) {
  setCrumbs(el('span', {}, agent));
  const rows = await api('timeline', { agent });
  const run = rows.some(row => row.metadata && row.metadata.pipeline) ? await api('run', { agent }) : null;
  const max = Math.max(1, ...rows.map(row => row.bytes || 0));
  const versions = rows.map(row => row.version);
  const from = el('select', { id: 'diff-from' }, versions.map(v => el('option', { value: v }, 'version ' + v)));
  const to = el('select', { id: 'diff-to' }, versions.map(v => el('option', { value: v }, 'version ' + v)));
  if (versions.length > 1) from.value = versions[versions.length - 2];
  if (versions.length > 0) to.value = versions[versions.length - 1];
  const compare = el('button', { id: 'compare', onclick: () => { location.hash = diffHash(agent, from.value, to.value); } }, 'Compare');
  show('timeline', el('h1', {}, 'Agent ', el('span', { class: 'mono' }, agent), ': ' + rows.length + ' checkpoints'),
    pipelineRun(agent, rows, run),
    el('div', { class: 'actions' }, 'Compare', from, 'with', to, compare),
    el('table', { id: 'timeline' },
      el('thead', {}, el('tr', {}, ['Version', 'Node', 'Created', 'Messages', 'Size', '', 'Metadata', 'Id'].map(h => el('th', {}, h)))),
      el('tbody', {}, rows.map(row => el('tr', {},
        el('td', { class: 'num' }, el('a', { href: checkpointHash(agent, row.version), class: 'version-link' }, row.version)),
        el('td', { class: 'mono' }, row.nodeId || '-'),
        el('td', { class: 'mono' }, row.createdAt),
        el('td', { class: 'num' }, row.messages),
        el('td', { class: 'num' }, bytes(row.bytes)),
        el('td', {}, bar((row.bytes || 0) / max)),
        el('td', {}, Object.entries(row.metadata || {}).map(([key, value]) => el('span', { class: 'pill' }, key + '=' + value))),
        el('td', { class: 'mono' }, row.checkpointId))))));
}

// A pipeline run (pipeline-core stores run r as agent '@run/' + r, or as r itself when an earlier version wrote
// it; it checkpoints every finished node with metadata 'pipeline' and 'pipeline.attempts', a runner continuing
// the run first saves a claim, a copy of the newest checkpoint with 'pipeline.claimed'; a tombstone marks the
// run completed): its nodes in order with their attempts.
const RUN_PREFIX = '@run/';
const runIdOf = agent => agent.startsWith(RUN_PREFIX) ? agent.substring(RUN_PREFIX.length) : agent;

function pipelineRun(agent, rows, run) {
  const nodes = rows.filter(row => row.metadata && row.metadata.pipeline);
  if (nodes.length === 0) return null;
  const completed = rows.length > 0 && rows[rows.length - 1].tombstone;
  const versions = new Map(rows.map(row => [row.checkpointId, row.version]));
  const finished = nodes.filter(row => !row.metadata['pipeline.claimed']);
  return el('section', { id: 'pipeline-run', class: 'facts-box' },
    el('h2', {}, 'Pipeline run ', el('span', { class: 'mono run-id' }, runIdOf(agent)), ' of ',
      el('span', { class: 'mono' }, nodes[0].metadata.pipeline), ': ',
      completed ? 'completed' : 'not completed (last finished node: ' + finished[finished.length - 1].nodeId + ')'),
    runOwner(run),
    el('ol', { class: 'pipeline-nodes' }, nodes.map(row => {
      const claimed = row.metadata['pipeline.claimed'];
      if (claimed) {
        return el('li', { class: 'claim' },
          el('a', { href: checkpointHash(agent, row.version) }, row.nodeId), ': claimed by a runner continuing the run'
            + ' (a copy of version ' + (versions.has(claimed) ? versions.get(claimed) : claimed) + ')');
      }
      const attempts = Number(row.metadata['pipeline.attempts'] ?? 1);
      return el('li', { class: attempts > 1 ? 'retried' : 'first-try' },
        el('a', { href: checkpointHash(agent, row.version) }, row.nodeId), ': ',
        attempts === 0 ? 'run started' : attempts === 1 ? 'passed on the first attempt'
          : 'passed on attempt ' + attempts + ' (' + (attempts - 1) + ' failed, rolled back and retried with feedback)',
        failedAttempts(row.metadata['pipeline.failed-attempts']));
    })));
}

// Who runs it (the API's 'run' report): the runner that saved its newest checkpoint, its place in the
// pipeline's durable queue and its lease (owner, fencing token, expiry), when it went through the queue.
function runOwner(run) {
  if (!run) return null;
  const parts = [];
  if (run.runner) parts.push(el('li', { class: 'runner' }, 'newest checkpoint saved by runner ',
    el('span', { class: 'mono' }, run.runner)));
  if (run.queue) parts.push(el('li', { class: 'queue' }, 'queue: ' + run.queue.status.replace('_', ' ') + ', '
    + run.queue.retries + (run.queue.retries === 1 ? ' retry' : ' retries')
    + (run.queue.notBefore ? ', next try at ' + run.queue.notBefore : '')
    + (run.queue.detail ? ' (' + run.queue.detail + ')' : '')));
  if (run.lease) parts.push(el('li', { class: 'lease' }, 'lease: ',
    run.lease.live ? 'held by ' : 'last held by ', el('span', { class: 'mono' }, run.lease.owner),
    ' (fencing token ' + run.lease.token + '), ' + (run.lease.live ? 'until ' : 'its lease ending at ') + run.lease.expiresAt));
  else parts.push(el('li', { class: 'lease' }, run.queue ? 'lease: no worker has claimed it yet'
    : 'lease: none (not run through the pipeline\'s queue)'));
  return el('ul', { id: 'run-owner' }, parts);
}

// What a node's failed attempts broke ('pipeline.failed-attempts': a JSON array of attempt, violations, error),
// one line per attempt; damaged metadata is shown as it is stored.
function failedAttempts(text) {
  if (!text) return null;
  let attempts;
  try {
    attempts = JSON.parse(text);
    if (!Array.isArray(attempts)) throw new Error('not an array');
  } catch (e) {
    return el('ul', { class: 'failed-attempts' }, el('li', {}, 'failed attempts (unreadable): ' + text));
  }
  return el('ul', { class: 'failed-attempts' }, attempts.map(attempt => el('li', {},
    (attempt.omittedAttempts ? attempt.omittedAttempts + ' earlier failed attempts not kept; ' : '')
      + 'attempt ' + attempt.attempt + ' failed',
    (attempt.violations || []).map(v => el('div', { class: 'violation' }, '[' + v.condition + '] ' + v.message)),
    attempt.omitted ? el('div', { class: 'violation' }, '… and ' + attempt.omitted + ' more violations') : null,
    attempt.error ? el('div', { class: 'violation error' }, 'threw ' + attempt.error) : null)));
}

function roleName(role) {
  return { SYSTEM: 'system', USER: 'user', ASSISTANT: 'assistant', TOOL_CALL: 'tool call', TOOL_RESULT: 'tool result' }[role] || role;
}

function messageBody(message) {
  const parts = [];
  if (message.toolCall) {
    parts.push(el('span', { class: 'mono tool-name' }, message.toolCall.toolName + '(' + JSON.stringify(message.toolCall.arguments ?? null) + ')'));
  }
  if (message.content) parts.push(el('span', { class: 'content' }, message.content));
  for (const part of message.parts || []) {
    if (part.type !== 'text') parts.push(el('div', { class: 'mono' }, '[' + part.type + ' ' + (part.mimeType || '') + ' ' + (part.url || (part.name || 'inline')) + ']'));
  }
  return parts;
}

function resultBubble(index, message) {
  return el('div', { class: 'tool-result', 'data-index': index },
    el('span', { class: 'role' }, el('span', { class: 'index' }, '#' + index), 'result of ' + (message.metadata?.toolName || '?')),
    el('span', { class: 'content' }, message.content));
}

// Messages as a chat; each tool call holds its result (found by the call id) and the result is not shown again.
function conversation(messages, firstIndex) {
  const resultFor = new Map();
  messages.forEach((message, i) => {
    const callId = message.metadata?.toolCallId;
    if (message.role === 'TOOL_RESULT' && callId && !resultFor.has(callId)) resultFor.set(callId, i);
  });
  const shown = new Set();
  const bubbles = [];
  messages.forEach((message, i) => {
    if (shown.has(i)) return;
    const kind = roleName(message.role).replace(' ', '-');
    const bubble = el('div', { class: 'message ' + kind, 'data-index': firstIndex + i },
      el('span', { class: 'role' }, el('span', { class: 'index' }, '#' + (firstIndex + i)), roleName(message.role)),
      messageBody(message));
    if (message.toolCall) {
      const result = resultFor.get(message.toolCall.id);
      if (result !== undefined && result > i) {
        bubble.append(resultBubble(firstIndex + result, messages[result]));
        shown.add(result);
      } else {
        bubble.append(el('div', { class: 'unanswered' }, 'no result'));
      }
    }
    bubbles.push(bubble);
  });
  return el('div', { class: 'conversation' }, bubbles);
}

async function checkpointPage(agent, ref) {
  setCrumbs(el('a', { href: agentHash(agent) }, agent), el('span', {}, 'version ' + ref));
  const checkpoint = await api('checkpoint', { agent, ref });
  const facts = [['agent', checkpoint.agentId], ['version', checkpoint.version], ['id', checkpoint.checkpointId],
    ['created', checkpoint.createdAt], ['node', checkpoint.nodeId ?? '-'], ['parent', checkpoint.parentCheckpointId],
    ['input', checkpoint.lastInput === undefined ? undefined : (checkpoint.lastInputType ? '(' + checkpoint.lastInputType + ') ' : '') + JSON.stringify(checkpoint.lastInput)]]
    .filter(([, value]) => value !== undefined);
  for (const [key, value] of Object.entries(checkpoint.metadata || {})) facts.push(['meta ' + key, value]);
  for (const [key, value] of Object.entries(checkpoint.state || {})) facts.push(['state ' + key, JSON.stringify(value)]);
  const navigation = el('div', { class: 'actions' },
    checkpoint.version > 0 ? el('a', { href: checkpointHash(agent, checkpoint.version - 1), id: 'previous' }, '← version ' + (checkpoint.version - 1)) : null,
    checkpoint.version > 0 ? el('a', { href: diffHash(agent, checkpoint.version - 1, checkpoint.version), id: 'diff-previous' }, 'changes since version ' + (checkpoint.version - 1)) : null);
  show('checkpoint', el('h1', {}, 'Checkpoint ', el('span', { class: 'mono' }, agent), ' version ' + checkpoint.version),
    navigation, el('dl', { class: 'facts' }, facts.map(([key, value]) => [el('dt', {}, key), el('dd', {}, value)])),
    el('h2', {}, 'Conversation (' + checkpoint.messageHistory.length + ' messages)'),
    conversation(checkpoint.messageHistory, 0));
}

const PILL_SIGNS = { add: '+ ', remove: '− ', change: '~ ' };

function pills(keys, kind) {
  return keys.map(key => el('span', { class: 'pill ' + kind, title: kind }, PILL_SIGNS[kind] + key));
}

function noneIfEmpty(...groups) {
  return groups.flat().length === 0 ? 'none' : groups;
}

async function diffPage(agent, from, to) {
  setCrumbs(el('a', { href: agentHash(agent) }, agent), el('span', {}, 'version ' + from + ' → ' + to));
  const diff = await api('diff', { agent, from, to });
  const bubbles = (list) => el('div', { class: 'conversation' }, list.map(entry =>
    el('div', { class: 'message ' + roleName(entry.message.role).replace(' ', '-'), 'data-index': entry.index },
      el('span', { class: 'role' }, el('span', { class: 'index' }, '#' + entry.index), roleName(entry.message.role)),
      messageBody(entry.message))));
  show('diff', el('div', { id: 'diff' },
    el('h1', {}, 'Changes of ', el('span', { class: 'mono' }, agent), ' from ',
      el('a', { href: checkpointHash(agent, diff.from.version) }, 'version ' + diff.from.version), ' to ',
      el('a', { href: checkpointHash(agent, diff.to.version) }, 'version ' + diff.to.version)),
    el('dl', { class: 'facts' },
      el('dt', {}, 'node'), el('dd', { id: 'node-change' }, diff.nodeChanged ? (diff.from.nodeId ?? '-') + ' → ' + (diff.to.nodeId ?? '-') : (diff.to.nodeId ?? '-') + ' (unchanged)'),
      el('dt', {}, 'messages'), el('dd', {}, diff.from.messages + ' → ' + diff.to.messages),
      el('dt', {}, 'state'), el('dd', { id: 'state-change' }, noneIfEmpty(pills(diff.state.added, 'add'), pills(diff.state.removed, 'remove'), pills(diff.state.changed, 'change'))),
      el('dt', {}, 'metadata'), el('dd', {}, noneIfEmpty(pills(diff.metadataChanged, 'change')))),
    el('h2', {}, diff.messagesAdded.length + ' messages added'),
    el('div', { class: 'added' }, bubbles(diff.messagesAdded)),
    el('h2', {}, diff.messagesRemoved.length + ' messages removed'),
    el('div', { class: 'removed' }, bubbles(diff.messagesRemoved))));
}

async function route() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(part => part !== '').map(decodeURIComponent);
  delete view.dataset.ready;
  try {
    if (parts[0] === 'agent' && parts.length === 2) await timelinePage(parts[1]);
    else if (parts[0] === 'checkpoint' && parts.length === 3) await checkpointPage(parts[1], parts[2]);
    else if (parts[0] === 'diff' && parts.length === 4) await diffPage(parts[1], parts[2], parts[3]);
    else await agentsPage();
  } catch (error) {
    show('error', el('p', { class: 'error', id: 'error' }, error.message));
  }
}

api('store').then(store => { document.getElementById('store').textContent = store.description; }).catch(() => {});
window.addEventListener('hashchange', route);
route();
