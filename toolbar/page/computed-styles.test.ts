import { describe, expect, it } from 'vitest';
import { summarizeStyles, type StyleReader } from './computed-styles.ts';

/** A computed style: every property the browser would give, defaults unless `set` says otherwise. */
function computedStyle(set: Record<string, string> = {}): StyleReader {
  const defaults: Record<string, string> = {
    display: 'block', position: 'static', 'z-index': 'auto', float: 'none', 'box-sizing': 'border-box',
    width: '100px', height: '20px', 'min-width': 'auto', 'max-width': 'none', 'min-height': 'auto', 'max-height': 'none',
    color: 'rgb(31, 36, 48)', 'background-color': 'rgba(0, 0, 0, 0)', 'background-image': 'none', opacity: '1',
    visibility: 'visible', 'overflow-x': 'visible', 'overflow-y': 'visible', 'font-family': 'Inter, sans-serif',
    'font-size': '15px', 'font-weight': '400', 'font-style': 'normal', 'line-height': '22.5px', 'letter-spacing': 'normal',
    'text-align': 'start', 'text-decoration-line': 'none', 'text-transform': 'none', 'white-space': 'normal',
    transform: 'none', 'box-shadow': 'none', cursor: 'auto', 'pointer-events': 'auto', order: '0',
  };
  for (const side of ['top', 'right', 'bottom', 'left']) {
    defaults[side] = 'auto';
    defaults[`margin-${side}`] = '0px';
    defaults[`padding-${side}`] = '0px';
    defaults[`border-${side}-width`] = '0px';
    defaults[`border-${side}-style`] = 'none';
    defaults[`border-${side}-color`] = 'rgb(31, 36, 48)';
  }
  for (const corner of ['top-left', 'top-right', 'bottom-right', 'bottom-left']) defaults[`border-${corner}-radius`] = '0px';
  const all = { ...defaults, ...set };
  return { getPropertyValue: (name: string) => all[name] ?? '' };
}

describe('summarizeStyles', () => {
  it('gives layout, box model and type, leaving initial values and static offsets out', () => {
    const styles = summarizeStyles(computedStyle({ 'margin-bottom': '16px', 'padding-top': '8px', 'padding-bottom': '8px', 'padding-left': '16px', 'padding-right': '16px' }), null);
    expect(styles).toEqual({
      display: 'block',
      position: 'static',
      'z-index': 'auto',
      'box-sizing': 'border-box',
      width: '100px',
      height: '20px',
      margin: '0px 0px 16px',
      padding: '8px 16px',
      color: 'rgb(31, 36, 48)',
      'background-color': 'rgba(0, 0, 0, 0)',
      opacity: '1',
      visibility: 'visible',
      'overflow-x': 'visible',
      'overflow-y': 'visible',
      'font-family': 'Inter, sans-serif',
      'font-size': '15px',
      'font-weight': '400',
      'font-style': 'normal',
      'line-height': '22.5px',
      'text-align': 'start',
      'white-space': 'normal',
    });
  });

  it('adds offsets when positioned, and borders as one shorthand or per side', () => {
    const same = Object.fromEntries(['top', 'right', 'bottom', 'left'].flatMap((s) => [[`border-${s}-width`, '1px'], [`border-${s}-style`, 'solid']]));
    const styles = summarizeStyles(computedStyle({ position: 'absolute', top: '0px', left: '10px', ...same, 'border-top-left-radius': '6px', 'border-top-right-radius': '6px', 'border-bottom-right-radius': '6px', 'border-bottom-left-radius': '6px' }), null);
    expect(styles).toMatchObject({ position: 'absolute', top: '0px', left: '10px', right: 'auto', border: '1px solid rgb(31, 36, 48)', 'border-radius': '6px' });
    const bottomOnly = summarizeStyles(computedStyle({ 'border-bottom-width': '2px', 'border-bottom-style': 'dashed' }), null);
    expect(bottomOnly).toMatchObject({ 'border-bottom': '2px dashed rgb(31, 36, 48)' });
    expect(bottomOnly).not.toHaveProperty('border');
    expect(bottomOnly).not.toHaveProperty('border-top');
  });

  it('adds flex and grid properties only where they apply', () => {
    const flexParent = computedStyle({ display: 'flex' });
    const item = summarizeStyles(computedStyle({ 'flex-grow': '1', 'flex-shrink': '1', 'flex-basis': 'auto', 'align-self': 'auto', 'justify-content': 'center' }), flexParent);
    expect(item).toMatchObject({ 'flex-grow': '1', 'flex-basis': 'auto' });
    expect(item).not.toHaveProperty('justify-content');
    const container = summarizeStyles(computedStyle({ display: 'inline-grid', 'grid-template-columns': '1fr 1fr 1fr', 'column-gap': '16px' }), null);
    expect(container).toMatchObject({ display: 'inline-grid', 'grid-template-columns': '1fr 1fr 1fr', 'column-gap': '16px' });
    expect(container).not.toHaveProperty('flex-grow');
  });

  it('cuts long values', () => {
    const styles = summarizeStyles(computedStyle({ 'background-image': `url("data:image/png;base64,${'A'.repeat(5000)}")` }), null);
    expect(styles['background-image']).toHaveLength(300);
  });
});
