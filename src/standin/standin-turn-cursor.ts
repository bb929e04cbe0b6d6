// Which scripted turn a request gets. One cursor per model (case-insensitive name); a model
// without its own list reads the "*" list with its own cursor. Turns go out in arrival order.
// A claim takes its turn; a turn is consumed only when its reply is delivered: a request that did
// not deliver one (an HTTP fault, a dropped stream, an error line, a client that gave up, a request
// cancelled while queued) hands its turn back, so the retry gets the same turn. A fault's `times`
// counts the requests that got it; a non-fatal fault (a malformed line, a short stall) still
// delivers its reply, so its turn is consumed and never replayed.
import type { StandinFault, StandinScript, StandinTurn } from './standin-script';
import { selectFault } from './standin-fault';
import { modelKey } from './standin-model-name';

export type TurnClaim =
  | {
      kind: 'turn';
      /** index in the model's turn list */
      index: number;
      /** absolute position (grows past the list length when looping); pass to giveBack */
      position: number;
      turn: StandinTurn;
      /** set when this request gets the turn's fault */
      fault?: StandinFault;
    }
  | { kind: 'exhausted'; index: number; message: string };

interface CursorState {
  next: number;
  /** positions handed back, served again before `next` (kept sorted) */
  returned: number[];
  /** requests that got each position's fault */
  fired: Map<number, number>;
}

export class TurnCursor {
  private readonly states = new Map<string, CursorState>();

  constructor(private script: StandinScript = { turns: {} }) {}

  setScript(script: StandinScript): void {
    this.script = script;
    this.states.clear();
  }

  reset(): void {
    this.states.clear();
  }

  /** The turn list serving `model`: its own key (exact, then by normalized name), else "*". */
  turnsFor(model: string): StandinTurn[] {
    const turns = this.script.turns ?? {};
    if (Object.prototype.hasOwnProperty.call(turns, model)) return turns[model];
    const key = modelKey(model);
    if (key) {
      for (const [name, list] of Object.entries(turns)) {
        if (name !== '*' && modelKey(name) === key) return list;
      }
    }
    return turns['*'] ?? [];
  }

  /** Claims the next turn for `model` (the name as sent; it appears in the exhausted message). */
  claim(model: string): TurnClaim {
    const state = this.state(model);
    const turns = this.turnsFor(model);
    const looping = this.script.loop === true && turns.length > 0;
    const fromReturned = state.returned.length > 0;
    const position = fromReturned ? state.returned[0] : state.next;
    if (!looping && position >= turns.length && this.script.whenExhausted === 'repeat_last' && turns.length > 0) {
      // a stuck model: the last turn again, without its fault (that fired when the turn was new)
      if (fromReturned) state.returned.shift();
      else state.next += 1;
      return { kind: 'turn', index: turns.length - 1, position, turn: { ...turns[turns.length - 1], fault: undefined } };
    }
    if (!looping && position >= turns.length) {
      return {
        kind: 'exhausted',
        index: position,
        message: `stand-in script exhausted: model '${model}' has no turn ${position + 1} (script has ${turns.length})`,
      };
    }
    const index = position % turns.length;
    const turn = turns[index];
    const fired = state.fired.get(position) ?? 0;
    const fault = selectFault(turn, fired);
    if (fault) state.fired.set(position, fired + 1);
    if (fromReturned) state.returned.shift();
    else state.next += 1;
    return fault ? { kind: 'turn', index, position, turn, fault } : { kind: 'turn', index, position, turn };
  }

  /** Returns a claim whose reply was not delivered: the next request for the model gets that turn again. */
  giveBack(model: string, position: number): void {
    const state = this.state(model);
    if (position >= state.next || state.returned.includes(position)) return;
    state.returned.push(position);
    state.returned.sort((a, b) => a - b);
  }

  /** How many turns `model` has been served (handed-back claims not counted). */
  served(model: string): number {
    const state = this.states.get(modelKey(model) ?? model);
    return state ? state.next - state.returned.length : 0;
  }

  private state(model: string): CursorState {
    const key = modelKey(model) ?? model;
    let state = this.states.get(key);
    if (!state) {
      state = { next: 0, returned: [], fired: new Map() };
      this.states.set(key, state);
    }
    return state;
  }
}
