/**
 * `memo` without preact/compat (which would patch Preact's options and grow the bundle): the
 * wrapped component re-renders only when a prop changed by identity. Messages and parts are
 * replaced, never edited, by the sync client's structural sharing, so identity is exact.
 */
import { Component, h, type ComponentType, type FunctionComponent } from 'preact';
import { shallowEqual } from '../use-store.ts';

export function memo<P extends object>(
  component: FunctionComponent<P>,
  equals: (prev: P, next: P) => boolean = shallowEqual,
): ComponentType<P> {
  class Memo extends Component<P> {
    static override displayName = `Memo(${component.displayName ?? component.name})`;
    override shouldComponentUpdate(next: P): boolean {
      return !equals(this.props as P, next);
    }
    override render(props: P) {
      return h(component, props);
    }
  }
  return Memo as unknown as ComponentType<P>;
}
