// listen-hook.mjs: loaded into a Node.js server by http-launch.sh (through
// NODE_OPTIONS=--import), it writes the URL of the first socket the
// process listens on to the file LLMKIT_LISTEN_FILE, once the socket is
// listening, so that a server started on port 0 (PORT=0 for the
// reference servers) can be found without a race. The file appears whole
// (written aside, then renamed), "https" when the server is a TLS one, with
// 127.0.0.1 for a server listening on every address. Nothing of the
// server changes: listen() is wrapped, not replaced.

import { renameSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';

const file = process.env.LLMKIT_LISTEN_FILE;
const listen = net.Server.prototype.listen;
let told = false;

net.Server.prototype.listen = function (...args) {
	this.once('listening', () => {
		const a = this.address();
		if (told || file === undefined || a === null ||
		    typeof a !== 'object')
			return;
		told = true;
		const host = ['::', '0.0.0.0'].includes(a.address) ?
		    '127.0.0.1' : a.family === 'IPv6' ?
		    `[${a.address}]` : a.address;
		const scheme = this instanceof tls.Server ? 'https' : 'http';
		writeFileSync(`${file}.tmp`, `${scheme}://${host}:${a.port}\n`);
		renameSync(`${file}.tmp`, file);
	});
	return listen.apply(this, args);
};
