// Telling a player it is their turn when they look elsewhere: the tab's title and icon always;
// a sound and a browser notification only when the player asked for them here.

const FAVICON = "/static/favicon.svg";
const FAVICON_TURN = "/static/favicon-turn.svg";

export class Alerts {
  constructor({ title, soundBox, notifyButton, notifyState, storageKey, gameName }) {
    this.baseTitle = title;
    this.soundBox = soundBox;
    this.notifyButton = notifyButton;
    this.notifyState = notifyState;
    this.storageKey = storageKey;
    this.gameName = gameName;
    this.wasTurn = null; // unknown at first: no alert for the state the page opens in
    this.audio = null;
    soundBox.checked = localStorage.getItem(`${storageKey}:sound`) === "on";
    soundBox.addEventListener("change", () => {
      localStorage.setItem(`${storageKey}:sound`, soundBox.checked ? "on" : "off");
      if (soundBox.checked) this.beep(); // the click lets the page play sound from now on
    });
    notifyButton.addEventListener("click", () => this.askToNotify());
    this.showNotifyState();
  }

  showNotifyState() {
    if (!("Notification" in window)) {
      this.notifyButton.hidden = true;
      this.notifyState.textContent = "This browser cannot show notifications.";
      return;
    }
    const wanted = localStorage.getItem(`${this.storageKey}:notify`) === "on";
    const texts = {
      granted: wanted ? "You will get a notification when it is your turn and this tab is in the background." : "",
      denied: "Notifications are blocked for this site in your browser's settings.",
      default: "",
    };
    this.notifyState.textContent = texts[Notification.permission] || "";
    this.notifyButton.hidden = Notification.permission === "denied" || (Notification.permission === "granted" && wanted);
  }

  async askToNotify() {
    let permission = Notification.permission;
    if (permission === "default") permission = await Notification.requestPermission();
    if (permission === "granted") localStorage.setItem(`${this.storageKey}:notify`, "on");
    this.showNotifyState();
  }

  beep() {
    try {
      this.audio = this.audio || new AudioContext();
      const osc = this.audio.createOscillator();
      const gain = this.audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, this.audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, this.audio.currentTime + 0.35);
      osc.connect(gain).connect(this.audio.destination);
      osc.start();
      osc.stop(this.audio.currentTime + 0.35);
    } catch (e) {
      // no sound here: the title and icon still tell
    }
  }

  /** The room's state changed: `turn` is a short text when something waits for the player. */
  update(turn, line) {
    const isTurn = Boolean(turn);
    document.title = isTurn ? `● ${turn} · ${this.baseTitle}` : this.baseTitle;
    const icon = document.getElementById("favicon");
    if (icon) icon.href = isTurn ? FAVICON_TURN : FAVICON;
    if (isTurn && this.wasTurn === false) {
      if (this.soundBox.checked) this.beep();
      const wanted = localStorage.getItem(`${this.storageKey}:notify`) === "on";
      if (wanted && "Notification" in window && Notification.permission === "granted" && document.hidden) {
        try {
          new Notification(`${turn} · ${this.gameName}`, { body: line, tag: this.storageKey });
        } catch (e) {
          // some browsers only notify from a service worker: the title still tells
        }
      }
    }
    this.wasTurn = isTurn;
  }
}
