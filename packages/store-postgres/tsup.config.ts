import { defineConfig } from 'tsup';
import { sharedTsupOptions } from '../../tsup.shared.ts';

export default defineConfig(sharedTsupOptions);
