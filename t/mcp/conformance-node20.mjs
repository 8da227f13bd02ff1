// conformance-node20.mjs: a module resolution hook that lets the
// conformance suite (@modelcontextprotocol/conformance 0.1.16) load on
// Node.js 20. Its one bundle imports fs.globSync, which Node.js has from
// 22 on, at the top, so that every command fails to start on 20 ("The
// requested module 'fs' does not provide an export named 'globSync'"),
// though only tier-check calls it. The hook gives the bundle, and only
// it, an fs that has every export of Node's and a globSync that says what
// is missing; conformance.sh registers it when fs has no globSync.

const fs = 'data:text/javascript,export * from "node:fs";' +
    'export function globSync() {' +
    ' throw new Error("globSync needs Node.js 22 or later"); }';

export async function resolve(specifier, context, next) {
	if ((specifier === 'fs' || specifier === 'node:fs') &&
	    context.parentURL?.includes('/@modelcontextprotocol/conformance/'))
		return { url: fs, shortCircuit: true };
	return next(specifier, context);
}
