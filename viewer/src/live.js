// The live page's connection to `gauss view --serve`: polls GET /state while the page is
// open and sends GET /command?op=... for the buttons and the --set fields
// (apps/gauss/view_serve.cc). The simulation runs in gauss; this only draws its state.
export class LiveClient {
  /**
   * @param {any} ui elements from buildUi
   * @param {(state:any)=>void} onState called with each state received
   * @param {(maxForce:number)=>void} onForce called with the largest normal force seen
   */
  constructor(ui, onState, onForce) {
    this.ui = ui;
    this.onState = onState;
    this.onForce = onForce;
    this.paused = false;
    /** @type {any} */ this.state = null;
    this.busy = false;
    for (const [key, input] of Object.entries(ui.settings)) {
      input.addEventListener('change', () => this.command('set', key, input.value));
    }
  }

  /** Polls the state as often as the page draws, one request at a time. */
  start() {
    const poll = async () => {
      if (!this.busy) await this.request('/state');
      setTimeout(poll, 30);
    };
    poll();
  }

  /** Sends a command; resolves to the new state (or null with the error shown). */
  async command(op, key = '', value = '') {
    const query = new URLSearchParams({op, key, value});
    return this.request('/command?' + query.toString());
  }

  async request(path) {
    this.busy = true;
    try {
      const response = await fetch(path, {cache: 'no-store'});
      const body = await response.json();
      if (!response.ok) {
        this.ui.status.textContent = 'error: ' + body.error;
        this.ui.status.classList.add('gauss-error');
        return null;
      }
      this.ui.status.classList.remove('gauss-error');
      this.apply(body);
      return body;
    } catch (e) {
      this.ui.status.textContent = 'lost the connection to gauss: ' + e;
      return null;
    } finally {
      this.busy = false;
    }
  }

  apply(state) {
    this.state = state;
    this.paused = state.paused;
    let maxForce = 0;
    for (let k = 7; k < state.contacts.length; k += 9) maxForce = Math.max(maxForce, state.contacts[k]);
    this.onForce(maxForce);
    this.onState(state);
    this.ui.time.textContent = `t = ${state.time.toFixed(4)} s (step ${state.steps})`;
    this.ui.status.textContent = 'live: ' + state.summary;
    // The setting fields show the engine's values ("solver=pgs ... timestep=0.001 cone=..."),
    // except the one being edited.
    for (const pair of state.summary.split(' ')) {
      const [key, value] = pair.split('=');
      const input = this.ui.settings[key];
      if (input && document.activeElement !== input && input.value !== value) input.value = value;
    }
  }
}
