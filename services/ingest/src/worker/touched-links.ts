import type { Link, LinkMap } from './link';

/**
 * The links with something for the next batch to take (decision 1203): marked when a line, a link change or a
 * heartbeat reaches them, when the tick or a setup read changes their pipeline, or when a failed write puts their
 * changes back. A batch visits these, not every link the node holds: its work follows the changes. Nothing that a
 * link's pipeline or live row returns depends on the clock alone (METRICS.md §1: silence is never UNAVAILABLE by
 * itself); what time changes (a heartbeat, a gateway's link lost) comes from the tick, which marks the links it
 * changes. Mutable.
 */
export class TouchedLinks {
  private readonly marked = new Set<Link>();

  add(link: Link): void {
    this.marked.add(link);
  }

  get size(): number {
    return this.marked.size;
  }

  /**
   * The marked links the map holds now (a link marked before the map took it stays marked; one the map replaced or
   * dropped is forgotten), in the map's order.
   */
  held(links: LinkMap): Link[] {
    const out: Link[] = [];
    for (const l of this.marked) {
      if (links.get(l.source.sourceId) === l) out.push(l);
      else if (l.order > 0) this.marked.delete(l);
    }
    return out.sort((a, b) => a.order - b.order);
  }

  /** Mutates: the marked links the map holds and `keep` accepts, taken out (a batch visits them now). */
  take(links: LinkMap, keep: (link: Link) => boolean): Link[] {
    const out = this.held(links).filter(keep);
    for (const l of out) this.marked.delete(l);
    return out;
  }

  /** Mutates: the links are visited now (a machine's own write). */
  visited(links: readonly Link[]): void {
    for (const l of links) this.marked.delete(l);
  }
}
