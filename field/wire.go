package field

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/result"
)

// Protocol constants.
const (
	// DefaultPort is the server's TCP control port (and nothing else:
	// the probe's UDP ports are ephemeral).
	DefaultPort = 5301
	// version 2: per-session token, challenge–echo return routability,
	// optional request authentication.
	version = 2
	// lead is the time between the sender's epoch and its first packet:
	// room for the receiver to be listening.
	lead = 200 * time.Millisecond
	// helloEvery and helloFor pace the client's hello datagrams, which
	// open the NAT and prove the client's UDP address.
	helloEvery, helloFor = 50 * time.Millisecond, 3 * time.Second
	// controlTimeout bounds each wait for a control message that should
	// come at once.
	controlTimeout = 10 * time.Second
	// dialRetry is how long a refused control connection is retried.
	dialRetry = 2 * time.Second
)

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
	// Auth proves the client holds the server's shared secret (auth.go);
	// a server without one ignores it.
	Auth *authTag `json:"auth,omitempty"`
}

// accept answers a request (server → client): the server's UDP port and
// the session token the client's hellos must carry, or why not.
type accept struct {
	UDPPort int    `json:"udp_port,omitempty"`
	Session string `json:"session,omitempty"` // hex, tokenLen bytes
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

// ready says this end is ready: from the server, that the client's UDP
// address is validated (and, uplink, that its receiver listens); from the
// client of a downlink, that its receiver listens.
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

// errLineTooLong is a control line over the reader's limit.
var errLineTooLong = errors.New("control line too long")

// control is one end of a control connection. Sends may come from more
// than one goroutine (a shutdown notice); receives from one.
type control struct {
	conn net.Conn
	r    *bufio.Reader
	mu   sync.Mutex
	enc  *json.Encoder
}

// controlBuf is the control reader's buffer: a request or reply line fits
// in it whole; longer lines (an uplink's records) are gathered up to the
// limit the receiving call allows.
const controlBuf = 4 << 10

func newControl(c net.Conn) *control {
	return &control{conn: c, r: bufio.NewReaderSize(c, controlBuf), enc: json.NewEncoder(c)}
}

func (c *control) send(v any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.conn.SetWriteDeadline(time.Now().Add(controlTimeout))
	if err := c.enc.Encode(v); err != nil {
		return fmt.Errorf("control: send: %w", err)
	}
	return nil
}

// recv reads the next message into v, waiting at most wait (0: forever);
// a line over limit bytes is an error before it is held in memory.
func (c *control) recv(v any, wait time.Duration, limit int) error {
	var dl time.Time
	if wait > 0 {
		dl = time.Now().Add(wait)
	}
	_ = c.conn.SetReadDeadline(dl)
	line, err := readLine(c.r, limit)
	if err != nil {
		return fmt.Errorf("control: %w", err)
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("control: bad message: %w", err)
	}
	return nil
}

// readLine reads up to and including the next '\n', holding at most limit
// bytes: a longer line is errLineTooLong (its rest is left unread; the
// connection is of no further use).
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			return nil, fmt.Errorf("%w: over %d bytes", errLineTooLong, limit)
		}
		switch {
		case err == nil && line == nil:
			return bytes.Clone(frag), nil
		case err == nil:
			return append(line, frag...), nil
		case errors.Is(err, bufio.ErrBufferFull):
			line = append(line, frag...)
		default:
			return nil, err
		}
	}
}

// notify sends v within d unless a send is in progress (then the
// connection is about to be closed anyway): a session's last words.
func (c *control) notify(v any, d time.Duration) {
	if !c.mu.TryLock() {
		return
	}
	defer c.mu.Unlock()
	_ = c.conn.SetWriteDeadline(time.Now().Add(d))
	_ = c.enc.Encode(v)
}

// watchPeer calls spoke if the peer sends anything or closes the
// connection while nothing is expected from it (a client that left
// during the handshake, a server that stops during an uplink). The
// returned stop ends the watch and returns once the watcher has let go of
// the reader, which keeps what the peer sent.
func (c *control) watchPeer(spoke func()) (stop func()) {
	var stopping atomic.Bool
	done := make(chan struct{})
	_ = c.conn.SetReadDeadline(time.Time{})
	go func() {
		defer close(done)
		if _, _ = c.r.Peek(1); !stopping.Load() {
			spoke()
		}
	}()
	return func() {
		stopping.Store(true)
		_ = c.conn.SetReadDeadline(time.Now())
		<-done
	}
}

// lingerBytes and lingerFor bound what a server reads and discards after
// refusing an over-long line, so that its refusal reaches the client
// before the close (closing with unread input sends a reset, which may
// destroy the refusal in the client's receive queue).
const (
	lingerBytes = 1 << 20
	lingerFor   = 500 * time.Millisecond
)

// linger half-closes the connection and discards a bounded amount of the
// client's remaining input.
func (c *control) linger() {
	if tc, ok := c.conn.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	_ = c.conn.SetReadDeadline(time.Now().Add(lingerFor))
	_, _ = io.CopyN(io.Discard, c.conn, lingerBytes)
}
