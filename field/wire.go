package field

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"time"

	"github.com/leolab/leolab/result"
)

// Protocol constants.
const (
	// DefaultPort is the server's TCP control port (and nothing else:
	// the probe's UDP ports are ephemeral).
	DefaultPort = 5301
	version     = 1
	// Limits a server enforces on what a client may ask of it: 1 Gbit/s
	// (the fastest Starlink plan is far below) for at most an hour.
	maxRateBps  = 1e9
	maxDuration = time.Hour
	// lead is the time between the sender's epoch and its first packet:
	// room for the receiver to be listening.
	lead = 200 * time.Millisecond
	// helloEvery and helloFor pace the downlink's NAT-opening datagrams.
	helloEvery, helloFor = 50 * time.Millisecond, 3 * time.Second
	// controlTimeout bounds each wait for a control message that should
	// come at once.
	controlTimeout = 10 * time.Second
	// dialRetry is how long a refused control connection is retried.
	dialRetry = 2 * time.Second
)

// helloMagic starts a hello datagram (shorter than a CBR packet's header,
// so a receiver never counts it).
var helloMagic = []byte("leolab-hello")

// Direction is who sends the probe.
type Direction string

// The directions, as seen from the client (the terminal's side).
const (
	Down Direction = "down" // server → client
	Up   Direction = "up"   // client → server
)

// request opens a probe (client → server).
type request struct {
	Version    int       `json:"version"`
	Direction  Direction `json:"direction"`
	RateBps    float64   `json:"rate_bps"`
	Size       int       `json:"size"`
	DurationNs int64     `json:"duration_ns"`
	DrainNs    int64     `json:"drain_ns"`
}

// accept answers a request (server → client): the server's UDP port, or
// why not.
type accept struct {
	UDPPort int    `json:"udp_port,omitempty"`
	Error   string `json:"error,omitempty"`
}

// sentMsg ends the sending side: how many packets went out, on which
// epoch (the sender's CLOCK_REALTIME instant of t = 0).
type sentMsg struct {
	Sent         int64  `json:"sent"`
	EpochUnixNs  int64  `json:"epoch_unix_ns"`
	SendLateP99N int64  `json:"send_late_p99_ns"`
	Error        string `json:"error,omitempty"`
}

// ready tells the client the server has its hello (downlink).
type ready struct {
	Error string `json:"error,omitempty"`
}

// records carries the uplink receiver's figures back to the client: its
// flow summary and, per received packet, the sequence number and the send
// and receive stamps as Unix nanoseconds.
type records struct {
	Flow    result.Flow `json:"flow"`
	Packets [][3]int64  `json:"packets"`
	Error   string      `json:"error,omitempty"`
}

// control is one end of a control connection.
type control struct {
	conn net.Conn
	r    *bufio.Reader
	enc  *json.Encoder
}

func newControl(c net.Conn) *control {
	return &control{conn: c, r: bufio.NewReaderSize(c, 64<<10), enc: json.NewEncoder(c)}
}

func (c *control) send(v any) error {
	_ = c.conn.SetWriteDeadline(time.Now().Add(controlTimeout))
	if err := c.enc.Encode(v); err != nil {
		return fmt.Errorf("control: send: %w", err)
	}
	return nil
}

// recv reads the next message into v, waiting at most wait (0: forever).
func (c *control) recv(v any, wait time.Duration) error {
	var dl time.Time
	if wait > 0 {
		dl = time.Now().Add(wait)
	}
	_ = c.conn.SetReadDeadline(dl)
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("control: %w", err)
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("control: bad message: %w", err)
	}
	return nil
}

func (r *request) validate() error {
	switch {
	case r.Version != version:
		return fmt.Errorf("protocol version %d, this server speaks %d", r.Version, version)
	case r.Direction != Down && r.Direction != Up:
		return fmt.Errorf("direction %q: want %q or %q", r.Direction, Down, Up)
	case r.RateBps <= 0 || r.RateBps > maxRateBps:
		return fmt.Errorf("rate %g bit/s: want (0, %g]", r.RateBps, float64(maxRateBps))
	case r.DurationNs <= 0 || time.Duration(r.DurationNs) > maxDuration:
		return fmt.Errorf("duration %v: want (0, %v]", time.Duration(r.DurationNs), maxDuration)
	case r.DrainNs < 0 || time.Duration(r.DrainNs) > time.Minute:
		return fmt.Errorf("drain %v: want [0, 1m]", time.Duration(r.DrainNs))
	}
	return nil
}
