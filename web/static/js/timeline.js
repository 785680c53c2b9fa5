// The timeline page: a replay viewer of the match's log (timeline-viewer.js), times in the
// reader's own time (timeline-time.js), copyable commitments, salts and picks, and live
// updates in place while the match runs (timeline-live.js).
import { enableCopy } from "./common.js";
import { followLive } from "./timeline-live.js";
import { keepTimes } from "./timeline-time.js";
import { Viewer } from "./timeline-viewer.js";

enableCopy();
keepTimes();

const head = document.getElementById("match");
if (head && document.getElementById("moment")) {
  const viewer = new Viewer(head);
  viewer.start();
  followLive(head, viewer);
}
