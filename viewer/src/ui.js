// The page's controls: a panel of buttons, sliders and check boxes, and the legend. Only DOM
// here; main.js wires them to the scene.
import {PALETTE} from './scene.js';

const CSS = `
html,body{margin:0;height:100%;overflow:hidden;font:13px system-ui,sans-serif;background:#dfe6ec}
#gauss-canvas{position:absolute;inset:0;width:100%;height:100%;display:block}
.gauss-panel{position:absolute;left:8px;right:8px;bottom:8px;background:rgba(255,255,255,.9);
  border-radius:6px;padding:6px 10px;display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center}
.gauss-panel button{min-width:2.2em}
#gauss-time-slider{flex:1 1 300px}
#gauss-time{font-variant-numeric:tabular-nums;min-width:9em}
.gauss-legend{position:absolute;top:8px;left:8px;max-width:45%;background:rgba(255,255,255,.9);
  border-radius:6px;padding:6px 10px}
.gauss-legend .swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.4em;vertical-align:middle}
.gauss-legend pre{max-height:40vh;overflow:auto;font-size:11px;margin:4px 0}
.gauss-legend .summary{color:#333;font-family:monospace}
.gauss-error{color:#b00020}
`;

/** @param {string} tag @param {Record<string,string>} attrs @param {(Node|string)[]} children */
export function el(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

/** @param {string} label @param {string} id @param {boolean} checked */
function checkbox(label, id, checked) {
  const box = /** @type {HTMLInputElement} */ (el('input', {type: 'checkbox', id}));
  box.checked = checked;
  return {box, node: el('label', {}, [box, ' ' + label])};
}

/**
 * Builds the panel and legend. `live`: controls for the served simulation instead of the
 * time slider. Returns the elements main.js listens to.
 * @param {{model:any, trajectories:any[], live:boolean}} scene
 */
export function buildUi(scene) {
  document.head.append(el('style', {}, [CSS]));
  const canvas = el('canvas', {id: 'gauss-canvas'});
  document.body.append(canvas);
  const play = el('button', {id: 'gauss-play', title: 'play / pause (space)'}, ['play']);
  const back = el('button', {id: 'gauss-back', title: 'previous frame (←)'}, ['◀ frame']);
  const step = el('button', {id: 'gauss-step', title: 'next frame / one step (→)'}, ['frame ▶']);
  const reset = el('button', {id: 'gauss-reset', title: 'back to the start'}, ['reset']);
  const speed = el('select', {id: 'gauss-speed', title: 'playback speed'},
    ['0.1', '0.25', '0.5', '1', '2', '4'].map((s) => el('option', {value: s}, [s + '×'])));
  /** @type {HTMLSelectElement} */ (speed).value = '1';
  const slider = /** @type {HTMLInputElement} */ (el('input', {id: 'gauss-time-slider', type: 'range', min: '0', step: 'any', value: '0'}));
  const time = el('span', {id: 'gauss-time'}, ['t = 0 s']);
  const follow = el('select', {id: 'gauss-follow', title: 'keep a body at the centre of the view'},
    [el('option', {value: '-1'}, ['follow: none']),
     ...scene.model.bodies.slice(1).map((b, i) => el('option', {value: String(i + 1)}, ['follow: ' + (b.name || 'body ' + (i + 1))]))]);
  // The free (orbit) camera or one of the model's cameras (MJCF <camera>).
  const cameras = scene.model.cameras ?? [];
  const view = el('select', {id: 'gauss-camera', title: 'look through the free camera or a camera of the model'},
    [el('option', {value: '-1'}, ['camera: free']),
     ...cameras.map((c, i) => el('option', {value: String(i)}, ['camera: ' + (c.name || String(i))]))]);
  /** @type {HTMLSelectElement} */ (view).value = String(scene.camera >= 0 && scene.camera < cameras.length ? scene.camera : -1);
  const layout = el('select', {id: 'gauss-layout', title: 'several trajectories: ghosted or side by side'},
    [el('option', {value: 'ghost'}, ['ghosted']), el('option', {value: 'side'}, ['side by side'])]);
  const collision = checkbox('collision geoms', 'gauss-show-collision', true);
  const visual = checkbox('visual geoms and skins', 'gauss-show-visual', true);
  const sites = checkbox('sites', 'gauss-show-sites', false);
  const contacts = checkbox('contacts', 'gauss-show-contacts', true);
  const panel = el('div', {class: 'gauss-panel'}, [reset, back, play, step, speed]);
  const settings = {};
  if (scene.live) {
    for (const [key, values] of [['solver', ['newton', 'cg', 'pgs']],
                                 ['integrator', ['euler', 'implicit', 'implicitfast', 'rk4']],
                                 ['cone', ['pyramidal', 'elliptic']]]) {
      const select = el('select', {id: 'gauss-set-' + key, title: '--set ' + key},
        values.map((v) => el('option', {value: v}, [key + ': ' + v])));
      settings[key] = select;
      panel.append(select);
    }
    const timestep = el('input', {id: 'gauss-set-timestep', type: 'number', step: 'any', min: '0',
      value: String(scene.model.timestep), style: 'width:7em', title: '--set timestep'});
    settings.timestep = timestep;
    panel.append(el('label', {}, ['timestep ', timestep]));
  } else {
    panel.append(slider);
  }
  panel.append(time, follow);
  if (cameras.length) panel.append(view);
  if (scene.trajectories.length > 1) panel.append(layout);
  panel.append(collision.node, visual.node, sites.node, contacts.node);
  const legend = el('div', {class: 'gauss-legend', id: 'gauss-legend'},
    [el('b', {}, [`${scene.model.name || 'model'} (${scene.model.file})`])]);
  // With many trajectories (an experiment's runs) only the first is shown at first.
  const shown = scene.trajectories.map((_, i) => checkbox('', 'gauss-show-traj-' + i, scene.trajectories.length <= 3 || i === 0));
  scene.trajectories.forEach((t, i) => {
    const entry = el('div', {class: 'entry'}, [shown[i].node,
      el('span', {class: 'swatch', style: `background:${PALETTE[i % PALETTE.length]}`}),
      el('b', {}, [t.label]), ' ', el('span', {class: 'summary'}, [t.summary || '(no configuration file)'])]);
    if (t.config) entry.append(el('details', {}, [el('summary', {}, ['resolved configuration']), el('pre', {}, [t.config])]));
    legend.append(entry);
  });
  const status = el('div', {class: 'summary', id: 'gauss-status'});
  legend.append(status);
  document.body.append(legend, panel);
  return {shown: shown.map((s) => s.box), canvas, play, back, step, reset, speed, slider, time, follow, view, layout, status, settings,
    collision: collision.box, visual: visual.box, sites: sites.box, contacts: contacts.box};
}
