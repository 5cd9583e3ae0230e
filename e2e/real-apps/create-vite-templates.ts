/**
 * The Vite templates the real-apps tests scaffold with `npm create vite`, and what each test adds
 * to its app: a `Greeting` component of its own with a `<button id="greet">` at a known line, used
 * from the template's own App inside an element of the test's (`#greeting-host`).
 */

/** create-vite is pinned: a new version may change the templates, so it is a change of its own here. */
export const CREATE_VITE_VERSION = '9.3.0';

/** One line to insert right after the line of the file whose trimmed text is `after`, indented as it or one step more. */
export interface LineInsert {
  after: string;
  insert: string;
  deeper?: boolean;
}

export interface RealAppTemplate {
  /** The `--template` of create-vite. */
  template: string;
  /** The test's own component: the file (relative to the app), its text, and where its `<button` is. */
  greeting: { file: string; text: string; line: number; column: number };
  /** The template's App component: its file, the name the plugin gives it, and the lines to add. */
  app: { file: string; component: string; inserts: LineInsert[] };
  /** The template's call in `plugins: [...]` of its vite.config.ts, which agentbar's follows. */
  frameworkPlugin: string;
}

/** The line that puts the Greeting in an element of App's; the tests find it in the App they wrote. */
export const HOST_LINE = '<div id="greeting-host"><Greeting /></div>';

/** A JSX Greeting (React writes `className`, Preact and Solid `class`); its `<button` is at 4:7. */
function makeJsxGreeting(classAttribute: 'className' | 'class'): RealAppTemplate['greeting'] {
  const text = `export default function Greeting() {
  return (
    <p ${classAttribute}="greeting">
      <button id="greet" type="button">
        Hello
      </button>
    </p>
  )
}
`;
  return { file: 'src/Greeting.tsx', text, line: 4, column: 7 };
}

/** Its `<button` is at 3:5. */
const VUE_GREETING = `<template>
  <p class="greeting">
    <button id="greet" type="button">
      Hello
    </button>
  </p>
</template>
`;

/** Its `<button` is at 2:3. */
const SVELTE_GREETING = `<p class="greeting">
  <button id="greet" type="button">
    Hello
  </button>
</p>
`;

/** The template's App in `file`: the Greeting's import goes after `importAfter`, the host line inside `hostAfter`. */
function makeApp(file: string, greetingFile: string, importAfter: string, hostAfter: string): RealAppTemplate['app'] {
  const greetingImport = `import Greeting from './${greetingFile.replace(/^src\//, '')}'`;
  return {
    file,
    component: 'App',
    inserts: [
      { after: importAfter, insert: greetingImport },
      { after: hostAfter, insert: HOST_LINE, deeper: true },
    ],
  };
}

/** The first section of the React, Preact, Solid and Svelte templates' App. */
const CENTER = '<section id="center">';
const JSX_GREETING = 'src/Greeting.tsx';

export const TEMPLATES: RealAppTemplate[] = [
  { template: 'react-ts', greeting: makeJsxGreeting('className'), app: makeApp('src/App.tsx', JSX_GREETING, "import './App.css'", CENTER), frameworkPlugin: 'react()' },
  { template: 'preact-ts', greeting: makeJsxGreeting('class'), app: makeApp('src/app.tsx', JSX_GREETING, "import './app.css'", CENTER), frameworkPlugin: 'preact()' },
  { template: 'solid-ts', greeting: makeJsxGreeting('class'), app: makeApp('src/App.tsx', JSX_GREETING, "import './App.css'", CENTER), frameworkPlugin: 'solid()' },
  {
    template: 'vue-ts',
    greeting: { file: 'src/Greeting.vue', text: VUE_GREETING, line: 3, column: 5 },
    app: makeApp('src/App.vue', 'src/Greeting.vue', "import HelloWorld from './components/HelloWorld.vue'", '<template>'),
    frameworkPlugin: 'vue()',
  },
  {
    template: 'svelte-ts',
    greeting: { file: 'src/Greeting.svelte', text: SVELTE_GREETING, line: 2, column: 3 },
    app: makeApp('src/App.svelte', 'src/Greeting.svelte', "import Counter from './lib/Counter.svelte'", CENTER),
    frameworkPlugin: 'svelte()',
  },
];
