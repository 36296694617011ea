// The tether web console: lists instances and sessions, shows one session as a conversation,
// streams answers live and sends text with images and attached files. Plain JavaScript, no build step.
//
// Attachments: every file dropped or picked is stored as a session attachment on the host first
// (POST .../attachments, the body is the file and its Content-Type the browser's file.type, never
// guessed here); the message then names each one in its text as
// "[Attachment: name (size bytes, type)]" and in payload.attachments, and images (the four types,
// within the image limits) also travel inline as before, so agents that only read frames see them.
//
// Frames are untrusted input: every value from a frame goes into the page as text
// (textContent, createElement) or as a data:/blob: image URL built here, never as HTML.
// The token comes from the URL fragment (#token=...), is kept in sessionStorage and is sent
// only as an Authorization header; never in a cookie or a query string.

const LIMITS = Object.freeze({
  imageBytes: 10 * 1024 * 1024,
  frameImageBytes: 20 * 1024 * 1024,
  images: 4,
  types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  attachmentBytes: 20 * 1024 * 1024,
});
const RING_PAGES = 50; // at most this many poll pages of 200 frames when scanning a ring
const COUNTS_MS = 5000; // how often the instances' counts are refreshed
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const $ = (id) => document.getElementById(id);

// ---- token and API ------------------------------------------------------------------------

function readToken() {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem('tether-token', match[1]);
    history.replaceState(null, '', location.pathname); // the token leaves the address bar
  }
  return sessionStorage.getItem('tether-token');
}

const token = readToken();

/** An API error with the server's code and sentence. */
class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(path, options = {}) {
  const headers = Object.assign({ Authorization: 'Bearer ' + token }, options.headers || {});
  const response = await fetch(path, Object.assign({}, options, { headers, cache: 'no-store' }));
  if (!response.ok) {
    let code = 'HTTP_' + response.status;
    let message = response.statusText;
    try {
      const body = await response.json();
      if (body && body.error) {
        code = String(body.error.code);
        message = String(body.error.message);
      }
    } catch (e) {
      // not JSON: keep the status line
    }
    throw new ApiError(response.status, code, message);
  }
  return response;
}

const apiJson = async (path, options) => (await api(path, options)).json();
const instancePath = (id) => '/v1/instances/' + encodeURIComponent(id);

function showError(error) {
  const box = $('error');
  box.textContent = error instanceof ApiError
    ? (error.code === 'UNAUTHORIZED' ? 'The server refused the token (UNAUTHORIZED): ' : error.code + ': ') + error.message
    : String(error && error.message ? error.message : error);
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const formatBytes = (n) => Number(n).toLocaleString('en-US');
const plural = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');

// ---- instances and sessions ---------------------------------------------------------------

// open: the session shown; view and listing count up so that an answer to an older request
// (a session clicked before, a Refresh pressed twice) is dropped instead of mixed in.
const state = { open: null, stream: null, turns: new Map(), seen: new Set(), view: 0, listing: 0 };

async function loadInstances() {
  clearError();
  const listing = ++state.listing;
  const list = await apiJson('/v1/instances');
  const items = [];
  for (const summary of list) {
    const id = String(summary.id);
    const li = el('li', 'instance');
    li.dataset.instance = id;
    li.append(el('div', 'instance-name', id), el('div', 'counts'));
    showCounts(li, await apiJson(instancePath(id)));
    const sessions = el('ul', 'sessions');
    li.append(sessions);
    items.push(li);
    for (const s of await sessionsIn(id)) {
      const item = el('li');
      const button = el('button', 'session', s.channel + ':' + s.id);
      button.type = 'button';
      button.dataset.channel = s.channel;
      button.dataset.session = s.id;
      if (state.open && state.open.instance === id && state.open.channel === s.channel && state.open.id === s.id) {
        button.classList.add('open');
      }
      button.addEventListener('click', () => openSession(id, s.channel, s.id));
      item.append(button);
      sessions.append(item);
    }
  }
  if (listing === state.listing) $('instances').replaceChildren(...items);
}

function showCounts(li, info) {
  li.querySelector('.counts').textContent = 'frames ' + formatBytes(info.frames) + ' \u00b7 ' + formatBytes(info.bytes)
    + ' bytes \u00b7 oldest seq ' + info.oldest_seq + ' \u00b7 next seq ' + info.next_seq + ' \u00b7 waiters ' + info.waiters;
}

/** Refreshes the counts of the instances listed (cheap: one small GET each; sessions wait for Refresh). */
async function refreshCounts() {
  for (const li of document.querySelectorAll('#instances .instance')) {
    showCounts(li, await apiJson(instancePath(li.dataset.instance)));
  }
}

/** The sessions seen in an instance's ring, in order of first appearance. */
async function sessionsIn(instance) {
  const found = new Map();
  let after = 0;
  for (let page = 0; page < RING_PAGES; page++) {
    const r = await apiJson(instancePath(instance) + '/tether/poll?after_seq=' + after + '&limit=200');
    for (const f of r.frames) {
      if (f.session && typeof f.session.id === 'string') {
        const channel = typeof f.session.channel === 'string' ? f.session.channel : 'host';
        found.set(channel + '\u0000' + f.session.id, { channel, id: f.session.id });
      }
    }
    if (r.frames.length === 0 || r.next_seq <= after) break;
    after = r.next_seq;
  }
  return [...found.values()];
}

// ---- one session as a conversation --------------------------------------------------------

async function openSession(instance, channel, id) {
  if (state.stream) state.stream.abort();
  const view = ++state.view;
  state.open = { instance, channel, id };
  state.turns = new Map();
  state.seen = new Set();
  $('turns').replaceChildren();
  $('gap').hidden = true;
  setPresence(null);
  $('session-title').textContent = instance + ' \u00b7 ' + channel + ':' + id;
  $('send').hidden = false;
  for (const b of document.querySelectorAll('.session')) {
    b.classList.toggle('open', b.closest('.instance').dataset.instance === instance
      && b.dataset.channel === channel && b.dataset.session === id);
  }
  clearError();
  const filter = '&channel=' + encodeURIComponent(channel) + '&session_id=' + encodeURIComponent(id);
  let after = 0;
  try {
    for (let page = 0; page < RING_PAGES; page++) {
      const r = await apiJson(instancePath(instance) + '/tether/poll?after_seq=' + after + '&limit=200' + filter);
      if (view !== state.view) return; // another session was opened meanwhile
      if (r.gap) showGap();
      r.frames.forEach(render);
      if (r.frames.length === 0 || r.next_seq <= after) break;
      after = r.next_seq;
    }
  } catch (e) {
    if (view === state.view) showError(e);
    return;
  }
  if (view === state.view) follow(instance, after, filter);
}

/** Follows the NDJSON stream (fetch, so the bearer header can be sent; EventSource cannot). */
async function follow(instance, after, filter) {
  const controller = new AbortController();
  state.stream = controller;
  try {
    const response = await api(instancePath(instance) + '/tether/stream?after_seq=' + after + filter,
      { signal: controller.signal });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line === '') continue; // heartbeat
        const item = JSON.parse(line);
        if (item.gap === true && item.type === undefined) showGap();
        else render(item);
      }
    }
    if (!controller.signal.aborted) {
      showError('The live stream ended (the server stopped, or the instance was deleted); press Refresh and open the session again.');
    }
  } catch (e) {
    if (!controller.signal.aborted) showError(e);
  }
}

function showGap() {
  $('gap').hidden = false;
}

function setPresence(value) {
  const p = $('presence');
  p.hidden = value === null;
  p.textContent = value === null ? '' : 'agent: ' + value;
  p.className = 'presence' + (value === 'thinking' ? ' thinking' : '');
}

function render(frame) {
  if (typeof frame.seq === 'number') {
    if (state.seen.has(frame.seq)) return;
    state.seen.add(frame.seq);
  }
  const payload = frame.payload && typeof frame.payload === 'object' ? frame.payload : {};
  const text = typeof payload.text === 'string' ? payload.text : '';
  const msgId = typeof frame.msg_id === 'string' ? frame.msg_id : 'seq-' + frame.seq;
  switch (frame.type) {
    case 'status.presence':
      setPresence(typeof payload.state === 'string' ? payload.state : 'unknown');
      return;
    case 'assistant.delta': {
      const turn = answerTurn(msgId);
      if (!turn.classList.contains('streaming')) return; // done already shown
      turn.frames.push(frame);
      turn.deltas += 1;
      turn.querySelector('.role').textContent = 'assistant \u00b7 streaming (' + plural(turn.deltas, 'delta') + ')';
      turn.querySelector('.turn-text').textContent += text;
      return;
    }
    case 'assistant.done':
    case 'assistant.message': {
      const turn = answerTurn(msgId);
      turn.classList.replace('streaming', 'done');
      turn.frames.push(frame);
      turn.querySelector('.role').textContent = turn.deltas > 0
        ? 'assistant \u00b7 ' + plural(turn.deltas, 'delta') + ' streamed' : 'assistant';
      turn.querySelector('.turn-text').textContent = text;
      showImages(turn, payload.images);
      return;
    }
    case 'user.message': {
      const turn = newTurn('user', 'user', frame);
      turn.querySelector('.turn-text').textContent = text;
      showImages(turn, payload.images);
      return;
    }
    case 'error': {
      const code = typeof payload.code === 'string' ? payload.code : 'ERROR';
      const message = typeof payload.message === 'string' ? payload.message : '';
      const turn = newTurn('error', 'error ' + code, frame);
      turn.querySelector('.turn-text').textContent = code + ': ' + message;
      return;
    }
    case 'event.tool_approval_request':
      showApprovalRequest(frame, payload, msgId);
      return;
    case 'control.tool_approval':
      settleApproval(payload.id, typeof payload.decision === 'string' ? payload.decision : 'answered');
      return;
    default: {
      const turn = newTurn('other', String(frame.type), frame);
      turn.querySelector('.turn-text').textContent = text;
      if (frame.type === 'event.tool_state' && ['running', 'denied', 'timeout', 'cancelled', 'completed', 'failed']
        .includes(payload.state)) settleApproval(payload.id, String(payload.state));
    }
  }
}

// ---- tool approvals -----------------------------------------------------------------------

// An agent's event.tool_approval_request is shown with Approve, Deny and Approve all; a click
// POSTs a control.tool_approval for the request's id in its session and msg_id, as any host
// client would. The request stays answerable until an answer or a later tool state is seen.
const DECISIONS = [['approve', 'Approve'], ['deny', 'Deny'], ['approve_all', 'Approve all']];

function showApprovalRequest(frame, payload, msgId) {
  const id = typeof payload.id === 'string' ? payload.id : '';
  const name = typeof payload.name === 'string' ? payload.name : 'a tool';
  const turn = newTurn('approval', 'approval requested', frame);
  const input = payload.input === undefined ? '' : ' ' + JSON.stringify(payload.input);
  turn.querySelector('.turn-text').textContent = 'The agent asks to run ' + name + input;
  if (id === '' || !state.open) return;
  const open = state.open;
  const buttons = el('div', 'approval-buttons');
  for (const [decision, label] of DECISIONS) {
    const b = el('button', 'approval-' + decision, label);
    b.type = 'button';
    b.addEventListener('click', () => answerApproval(open, id, msgId, decision, turn));
    buttons.append(b);
  }
  turn.append(buttons);
  state.turns.set('approval:' + id, turn);
}

async function answerApproval(open, id, msgId, decision, turn) {
  for (const b of turn.querySelectorAll('.approval-buttons button')) b.disabled = true;
  const frame = { v: 1, type: 'control.tool_approval', session: { channel: open.channel, id: open.id }, msg_id: msgId,
    payload: { id, decision } };
  try {
    await api(instancePath(open.instance) + '/tether', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(frame),
    });
    settleApproval(id, decision);
  } catch (e) {
    for (const b of turn.querySelectorAll('.approval-buttons button')) b.disabled = false;
    showError(e);
  }
}

/** Marks the approval request {@code id} as answered ({@code outcome}); its buttons go. */
function settleApproval(id, outcome) {
  const turn = typeof id === 'string' ? state.turns.get('approval:' + id) : undefined;
  if (!turn) return;
  turn.querySelector('.approval-buttons')?.remove();
  turn.classList.add('settled');
  turn.querySelector('.role').textContent = 'approval: ' + outcome;
}

/** The assistant turn answering {@code msgId}, created (streaming) when it is the first frame. */
function answerTurn(msgId) {
  let turn = state.turns.get('answer:' + msgId);
  if (!turn) {
    turn = newTurn('assistant streaming', 'assistant', null);
    turn.deltas = 0;
    state.turns.set('answer:' + msgId, turn);
  }
  return turn;
}

function newTurn(className, label, frame) {
  const li = el('li', 'turn ' + className);
  li.frames = frame ? [frame] : [];
  const head = el('div', 'turn-head');
  head.append(el('span', 'role', label));
  const toggle = el('button', 'raw-toggle', 'raw');
  toggle.type = 'button';
  toggle.addEventListener('click', () => toggleRaw(li));
  head.append(toggle);
  li.append(head, el('div', 'turn-text'), el('div', 'images'));
  $('turns').append(li);
  li.scrollIntoView({ block: 'end' });
  return li;
}

function toggleRaw(turn) {
  const existing = turn.querySelector('pre.raw');
  if (existing) {
    existing.remove();
    return;
  }
  const pre = el('pre', 'raw', turn.frames.map((f) => JSON.stringify(elided(f), null, 2)).join('\n'));
  turn.append(pre);
}

/** A copy of a frame with each image's base64 replaced by its decoded size. */
function elided(frame) {
  const copy = JSON.parse(JSON.stringify(frame));
  const images = copy.payload && Array.isArray(copy.payload.images) ? copy.payload.images : [];
  for (const image of images) {
    if (image && typeof image.data === 'string') image.data = '<' + base64Bytes(image.data) + ' bytes elided>';
  }
  return copy;
}

function base64Bytes(data) {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor(data.length * 3 / 4) - padding;
}

// ---- images -------------------------------------------------------------------------------

function showImages(turn, images) {
  const box = turn.querySelector('.images');
  box.replaceChildren();
  if (!Array.isArray(images)) return;
  for (const image of images) {
    if (!image || typeof image !== 'object') continue;
    const figure = el('figure');
    const img = el('img');
    const caption = el('figcaption');
    figure.append(img, caption);
    box.append(figure);
    const type = typeof image.media_type === 'string' ? image.media_type : '';
    if (!LIMITS.types.includes(type)) {
      caption.textContent = 'not shown: media type ' + type;
      continue;
    }
    img.alt = type + ' image';
    img.addEventListener('load', () => {
      caption.textContent = type + ', ' + img.naturalWidth + 'x' + img.naturalHeight + ', ' + formatBytes(figure.bytes) + ' bytes';
    });
    img.addEventListener('error', () => {
      caption.textContent = type + ': the image cannot be decoded';
    });
    if (typeof image.data === 'string' && BASE64.test(image.data)) {
      figure.bytes = base64Bytes(image.data);
      img.src = 'data:' + type + ';base64,' + image.data;
    } else if (typeof image.blob === 'string') {
      figure.bytes = Number(image.size) || 0;
      loadBlob(img, figure, caption, image.blob);
    } else {
      caption.textContent = 'not shown: neither base64 data nor a blob ref';
    }
  }
}

async function loadBlob(img, figure, caption, key) {
  try {
    const response = await api(instancePath(state.open.instance) + '/blob/' + encodeURIComponent(key));
    const blob = await response.blob();
    figure.bytes = blob.size;
    img.src = URL.createObjectURL(blob);
  } catch (e) {
    caption.textContent = 'blob ' + key + ': ' + (e.code ? e.code + ': ' : '') + e.message;
  }
}

// ---- sending ------------------------------------------------------------------------------

let attachments = [];

const isImage = (file) => LIMITS.types.includes(file.type);

/** Adds files to the message, or refuses them with a sentence (the server checks again). */
function attach(files) {
  $('send-error').textContent = '';
  const next = attachments.slice();
  for (const file of files) {
    if (isImage(file) && file.size > LIMITS.imageBytes) {
      return refuse(file.name + ' has ' + formatBytes(file.size) + ' bytes; an image may have at most 10 MiB');
    }
    if (file.size > LIMITS.attachmentBytes) {
      return refuse(file.name + ' has ' + formatBytes(file.size) + ' bytes; an attached file may have at most 20 MiB');
    }
    next.push(file);
  }
  const images = next.filter(isImage);
  if (images.length > LIMITS.images) {
    return refuse('a message carries at most 4 images, not ' + images.length);
  }
  if (images.reduce((n, f) => n + f.size, 0) > LIMITS.frameImageBytes) {
    return refuse('the images add up to more than 20 MiB, the limit for one message');
  }
  attachments = next;
  showAttachments();
  return true;
}

function refuse(sentence) {
  $('send-error').textContent = sentence;
  return false;
}

function showAttachments() {
  const box = $('attachments');
  for (const img of box.querySelectorAll('img')) URL.revokeObjectURL(img.src);
  box.replaceChildren();
  attachments.forEach((file, i) => {
    const item = el('div', isImage(file) ? 'attachment' : 'attachment file');
    if (isImage(file)) {
      const img = el('img');
      img.src = URL.createObjectURL(file);
      img.alt = file.name;
      item.append(img);
    } else {
      item.append(el('span', 'file-type', file.type || 'application/octet-stream'));
    }
    const remove = el('button', null, '\u00d7');
    remove.type = 'button';
    remove.title = 'remove';
    remove.addEventListener('click', () => {
      attachments.splice(i, 1);
      showAttachments();
    });
    item.append(el('span', 'file-name', file.name + ' (' + formatBytes(file.size) + ' bytes) '), remove);
    box.append(item);
  });
}

function base64Of(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

async function send(event) {
  event.preventDefault();
  if (!state.open) return;
  const text = $('text').value;
  if (text.trim() === '' && attachments.length === 0) {
    refuse('write a message or attach a file');
    return;
  }
  $('send-button').disabled = true;
  try {
    const stored = await storeAttachments(attachments);
    const images = [];
    for (const file of attachments.filter(isImage)) images.push({ media_type: file.type, data: await base64Of(file) });
    const notices = stored.map((a) => '[Attachment: ' + a.name + ' (' + a.size + ' bytes, ' + a.mime_type + ')]');
    const payload = { text: [text, ...notices].filter((line) => line !== '').join('\n') };
    if (images.length) payload.images = images;
    if (stored.length) payload.attachments = stored.map((a) => ({ name: a.name, mime_type: a.mime_type, size: a.size }));
    const frame = { v: 1, type: 'user.message', session: { channel: state.open.channel, id: state.open.id }, payload };
    await api(instancePath(state.open.instance) + '/tether', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(frame),
    });
    $('text').value = '';
    $('files').value = '';
    attachments = [];
    showAttachments();
    $('send-error').textContent = '';
    loadInstances().catch(showError); // a new session, new counts
  } catch (e) {
    refuse(e instanceof ApiError ? e.code + ': ' + e.message : String(e));
  } finally {
    $('send-button').disabled = false;
  }
}

/**
 * Stores each file as an attachment of the open session, in order; the host's answers (the
 * names it stored them under). The body is the File, so the request's Content-Type is the
 * browser's file.type (none when the browser does not know it).
 */
async function storeAttachments(files) {
  const stored = [];
  const session = '?session_id=' + encodeURIComponent(state.open.id) + '&channel=' + encodeURIComponent(state.open.channel);
  for (const file of files) {
    const path = instancePath(state.open.instance) + '/attachments' + session + '&name=' + encodeURIComponent(file.name);
    stored.push(await apiJson(path, { method: 'POST', body: file }));
  }
  return stored;
}

// ---- start --------------------------------------------------------------------------------

function wire() {
  $('refresh').addEventListener('click', () => loadInstances().catch(showError));
  $('send').addEventListener('submit', send);
  $('files').addEventListener('change', () => {
    if (!attach($('files').files)) $('files').value = '';
  });
  const form = $('send');
  form.addEventListener('dragover', (e) => {
    e.preventDefault();
    form.classList.add('dragging');
  });
  form.addEventListener('dragleave', () => form.classList.remove('dragging'));
  form.addEventListener('drop', (e) => {
    e.preventDefault();
    form.classList.remove('dragging');
    attach(e.dataTransfer.files);
  });
  $('new-session').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('new-session-id').value.trim();
    const instance = state.open ? state.open.instance : document.querySelector('.instance')?.dataset.instance;
    if (id && instance) openSession(instance, 'host', id);
  });
}

wire();
// A console URL pasted into this tab again (a restarted serve has a new token) changes only the
// fragment, which loads nothing: take the token and start over.
window.addEventListener('hashchange', () => {
  if (/token=/.test(location.hash)) {
    readToken();
    location.reload();
  }
});
if (!token) {
  showError('No token: open the console with the URL that tether serve --console printed (it ends in #token=...).');
} else {
  loadInstances().catch(showError);
  setInterval(() => refreshCounts().catch(() => {}), COUNTS_MS);
}
