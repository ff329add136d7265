import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'training-data/**', 'test/artifacts/**', 'dev-dist/**', '.tmp/**', 'scripts/train/runs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The engine is pure: no DOM, React or ONNX runtime (see ../shared/STYLE.md, one-way imports).
    files: ['src/engine/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['react', 'react-dom', 'react-dom/*', 'react/*'], message: 'src/engine must not import React.' },
          { group: ['onnxruntime-web', 'onnxruntime-web/*', 'onnxruntime-node'], message: 'src/engine must not import the ONNX runtime.' },
          { group: ['**/vision/**', '**/app/**', '**/cli/**'], message: 'src/engine imports nothing from vision, app or cli.' },
          { group: ['node:*', 'fs', 'path', 'sharp'], message: 'src/engine is platform-free.' },
        ],
      }],
      'no-restricted-globals': ['error',
        { name: 'window', message: 'No DOM in src/engine.' },
        { name: 'document', message: 'No DOM in src/engine.' },
        { name: 'navigator', message: 'No DOM in src/engine.' },
        { name: 'localStorage', message: 'No DOM in src/engine.' },
      ],
    },
  },
  {
    // The event protocol and its pure logic (src/event) are shared by the server and the app: no DOM, no Node.
    files: ['src/event/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['react', 'react-dom', 'react-dom/*', 'react/*'], message: 'src/event must not import React.' },
          { group: ['**/vision/**', '**/app/**', '**/cli/**', '**/server/**'], message: 'src/event imports only the engine.' },
          { group: ['node:*', 'fs', 'path', 'crypto', 'sharp'], message: 'src/event is platform-free.' },
        ],
      }],
      'no-restricted-globals': ['error',
        { name: 'window', message: 'No DOM in src/event.' },
        { name: 'document', message: 'No DOM in src/event.' },
        { name: 'localStorage', message: 'No DOM in src/event.' },
      ],
    },
  },
  {
    // Vision may use engine types only; never the app or CLI.
    files: ['src/vision/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/app/**', '**/cli/**', 'react', 'react-dom'], message: 'src/vision must not import app, cli or React.' },
        ],
      }],
    },
  },
);
