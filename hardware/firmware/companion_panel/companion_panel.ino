// Tabletop Companion serial panel: reference firmware (Arduino Uno / Nano / Leonardo / Pico).
//
// Four buttons and a WS2812 ("NeoPixel") ring around the dice tray, talking the line protocol
// in docs/serial-panel.md at 115200 baud. Needs the Adafruit NeoPixel library
// (Library Manager: "Adafruit NeoPixel"). The host's simulator, hardware/simboard.py, speaks
// the same protocol: change one, change the other.
//
// Wiring: each button between its pin and GND (internal pull-ups); ring data on RING_PIN
// through a 330 ohm resistor, 5 V and GND from a supply that can carry the ring's current.

#include <Adafruit_NeoPixel.h>

static const char FIRMWARE_VERSION[] = "1.0";
static const uint8_t RING_PIN = 6;
static const uint8_t RING_PIXELS = 16;
static const uint8_t MAX_LINE = 64;            // as hardware/protocol.py MAX_LINE
static const unsigned long DEBOUNCE_MS = 30;   // a contact must be steady this long
static const unsigned long HOST_SILENT_MS = 10000;

struct PanelButton {
  const char *name;     // the name on the wire: BTN <name> DOWN|UP
  uint8_t pin;
  bool reported_down;   // the debounced state last sent
  bool raw_down;
  unsigned long changed_at;
};

static PanelButton buttons[] = {
  {"NEXT", 2, false, false, 0},
  {"CONFIRM", 3, false, false, 0},
  {"READ", 4, false, false, 0},
  {"UNDO", 5, false, false, 0},   // the host turns a long press into undo
};
static const uint8_t BUTTON_COUNT = sizeof(buttons) / sizeof(buttons[0]);

struct StateColour {
  const char *state;    // the host's TableLight values
  uint8_t r, g, b;
};

static const StateColour STATE_COLOURS[] = {
  {"idle", 0, 0, 40},
  {"waiting_for_dice", 0, 60, 0},
  {"reading", 60, 60, 0},
  {"needs_confirmation", 60, 0, 60},
  {"scoring", 0, 60, 60},
  {"game_over", 50, 50, 50},
};

Adafruit_NeoPixel ring(RING_PIXELS, RING_PIN, NEO_GRB + NEO_KHZ800);

static char line[MAX_LINE + 1];
static uint8_t line_length = 0;
static bool line_overflowed = false;
static bool tray_on = false;
static bool custom_ring = false;
static uint8_t state_r = 0, state_g = 0, state_b = 40;
static uint8_t ring_r = 0, ring_g = 0, ring_b = 0;
static unsigned long last_host_line = 0;

static void show() {
  uint8_t r = state_r, g = state_g, b = state_b;
  if (tray_on) {               // the tray light wins: the camera needs even white light
    r = g = b = 255;
  } else if (custom_ring) {
    r = ring_r; g = ring_g; b = ring_b;
  }
  for (uint8_t i = 0; i < RING_PIXELS; i++) ring.setPixelColor(i, ring.Color(r, g, b));
  ring.show();
}

static void ready() {
  Serial.print(F("READY "));
  Serial.println(FIRMWARE_VERSION);
}

static void error(const __FlashStringHelper *text) {
  Serial.print(F("ERR "));
  Serial.println(text);
}

// "RING 255 120 0": three numbers 0-255, nothing else.
static bool parse_colour(char *args, uint8_t *r, uint8_t *g, uint8_t *b) {
  long v[3];
  char *p = args;
  for (uint8_t i = 0; i < 3; i++) {
    char *end;
    while (*p == ' ') p++;
    if (*p < '0' || *p > '9') return false;
    v[i] = strtol(p, &end, 10);
    if (v[i] > 255) return false;
    p = end;
  }
  while (*p == ' ') p++;
  if (*p != '\0') return false;
  *r = v[0]; *g = v[1]; *b = v[2];
  return true;
}

static void handle_line(char *text) {
  char *args = strchr(text, ' ');
  if (args) *args++ = '\0'; else args = text + strlen(text);
  if (strcmp(text, "HELLO") == 0) {
    ready();
  } else if (strcmp(text, "PING") == 0) {
    Serial.print(F("PONG"));
    if (*args) { Serial.print(' '); Serial.print(args); }
    Serial.println();
  } else if (strcmp(text, "TRAY") == 0) {
    if (strcmp(args, "ON") == 0) tray_on = true;
    else if (strcmp(args, "OFF") == 0) tray_on = false;
    else { error(F("TRAY needs ON or OFF")); return; }
    show();
  } else if (strcmp(text, "LED") == 0) {
    for (uint8_t i = 0; i < sizeof(STATE_COLOURS) / sizeof(STATE_COLOURS[0]); i++) {
      if (strcmp(args, STATE_COLOURS[i].state) == 0) {
        state_r = STATE_COLOURS[i].r; state_g = STATE_COLOURS[i].g; state_b = STATE_COLOURS[i].b;
        custom_ring = false;
        show();
        return;
      }
    }
    error(F("LED needs a table state"));
  } else if (strcmp(text, "RING") == 0) {
    if (!parse_colour(args, &ring_r, &ring_g, &ring_b)) { error(F("RING needs r g b, 0-255")); return; }
    custom_ring = true;
    show();
  } else {
    error(F("unknown command"));
  }
}

static void read_host() {
  while (Serial.available() > 0) {
    char c = Serial.read();
    if (c == '\r') continue;
    if (c == '\n') {
      if (line_overflowed) {
        error(F("line too long"));
      } else {
        line[line_length] = '\0';
        last_host_line = millis();
        handle_line(line);
      }
      line_length = 0;
      line_overflowed = false;
    } else if (line_length < MAX_LINE) {
      line[line_length++] = c;
    } else {
      line_overflowed = true;   // drop the rest up to the newline; never overrun the buffer
    }
  }
}

static void scan_buttons() {
  unsigned long now = millis();
  for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
    PanelButton &b = buttons[i];
    bool down = digitalRead(b.pin) == LOW;
    if (down != b.raw_down) {
      b.raw_down = down;
      b.changed_at = now;
    } else if (down != b.reported_down && now - b.changed_at >= DEBOUNCE_MS) {
      b.reported_down = down;
      Serial.print(F("BTN "));
      Serial.print(b.name);
      Serial.println(down ? F(" DOWN") : F(" UP"));
    }
  }
}

void setup() {
  for (uint8_t i = 0; i < BUTTON_COUNT; i++) pinMode(buttons[i].pin, INPUT_PULLUP);
  ring.begin();
  show();
  Serial.begin(115200);
  while (!Serial && millis() < 2000) {}   // native USB boards: wait briefly for the host
  ready();
}

void loop() {
  read_host();
  scan_buttons();
  // The host pings every few seconds; if it went away, do not leave the tray lit.
  if (tray_on && millis() - last_host_line > HOST_SILENT_MS) {
    tray_on = false;
    show();
  }
}
