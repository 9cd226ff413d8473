#!/usr/bin/env node
// The operator CLI. Node 24 runs the TypeScript sources directly (type stripping).
import '../src/main.ts';
