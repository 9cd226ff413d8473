import type { Socket } from 'node:net';
import type { AgentResponse } from '@rampart/contracts';
import { LineSplitter } from './line-splitter.ts';
import { errorResponse, unknownRequestId } from './responses.ts';

export interface ConnectionOptions {
  maxLineBytes: number;
  /** Requests answered concurrently per connection before reading pauses. */
  maxInFlight?: number;
  dispatch: (line: Buffer) => Promise<AgentResponse>;
  log: (line: string) => void;
}

/**
 * Serves one client: many requests may be in flight, answers go out as they complete.
 * Memory stays bounded: an over-long line closes the connection, and reading pauses while
 * too many requests are pending or the client is not reading its answers.
 */
export function serveConnection(socket: Socket, options: ConnectionOptions): void {
  const maxInFlight = options.maxInFlight ?? 64;
  const splitter = new LineSplitter(options.maxLineBytes);
  let inFlight = 0;
  let waitingForDrain = false;
  let closing = false;
  let clientEnded = false;

  const updateFlow = (): void => {
    if (closing || socket.destroyed) return;
    // A client that sent its requests and half-closed still gets every answer, then EOF.
    if (clientEnded) {
      if (inFlight === 0) socket.end();
      return;
    }
    if (inFlight >= maxInFlight || waitingForDrain) socket.pause();
    else socket.resume();
  };

  const send = (response: AgentResponse): void => {
    if (!socket.writable) return;
    if (!socket.write(`${JSON.stringify(response)}\n`) && !waitingForDrain) {
      waitingForDrain = true;
      socket.once('drain', () => {
        waitingForDrain = false;
        updateFlow();
      });
    }
  };

  const refuseAndClose = (): void => {
    closing = true;
    socket.off('data', onData);
    send(errorResponse(unknownRequestId, 'bad_request', `line longer than ${options.maxLineBytes} bytes; closing the connection`));
    socket.end();
    // A client that never closes its side must not hold the socket open forever.
    setTimeout(() => socket.destroy(), 1000).unref();
  };

  const onData = (chunk: Buffer): void => {
    const { lines, overflow } = splitter.push(chunk);
    for (const line of lines) {
      if (line.length === 0 || (line.length === 1 && line[0] === 0x0d)) continue;
      inFlight++;
      options
        .dispatch(line)
        .then(send, (error: unknown) => {
          // dispatch never rejects by contract; this is the last line of defence.
          options.log(`connection: dispatch threw: ${error instanceof Error ? error.message : String(error)}`);
          send(errorResponse(unknownRequestId, 'failed', 'internal error'));
        })
        .finally(() => {
          inFlight--;
          updateFlow();
        });
    }
    if (overflow) refuseAndClose();
    else updateFlow();
  };

  socket.on('data', onData);
  socket.on('end', () => {
    clientEnded = true;
    updateFlow();
  });
  // A client that vanishes mid-answer (EPIPE, ECONNRESET) is its own problem, not the agent's.
  socket.on('error', () => socket.destroy());
}
