/**
 * The live frames of one research as the WebSocket delivers them (one subscription shared by every
 * consumer: canvas, side panel, curves), ordered by time on the client (see @furnace/contracts
 * live-order): the canvas and side panel subscribe to the newest frame, the curves to every frame.
 * Consumers that also load history drop frames whose time is not after the history's last_time,
 * so a viewer joining mid-test sees no gap and no duplicate.
 */
export { createFrameSource, type FrameSource } from '@furnace/contracts';
