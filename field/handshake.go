package field

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/endpoint"
	"golang.org/x/sys/unix"
)

// Return routability: before the server sends a probe to (or accepts one
// from) a UDP address, that address proves it receives. The control
// channel hands the client a random session token; the client's hellos
// carry it; the server answers each hello's source with a challenge, an
// HMAC of the token and that source under a key of the server's; the
// client echoes the challenge from the same address; only then does the
// server connect its socket to the address. A forged hello gets its
// victim one challenge no larger than itself (no amplification) and the
// flow never; a third party that guessed the port lacks the token.
//
// Every handshake datagram is 12 bytes: below a CBR packet's 16-byte
// header, so a CBR receiver never counts one that arrives late.
const (
	magicLen  = 4
	tokenLen  = 8 // a 64-bit secret, live for seconds: not guessable online
	macLen    = 8
	handshake = magicLen + 8
)

// The datagrams' magics.
var (
	helloMagic     = [magicLen]byte{'L', 'L', 'H', 2} // + session token
	challengeMagic = [magicLen]byte{'L', 'L', 'C', 2} // + challenge
	echoMagic      = [magicLen]byte{'L', 'L', 'E', 2} // + challenge
)

// serverKeyLen is the challenge key's size (SHA-256's block-sized key
// would be 64; 32 bytes of randomness are all the strength it has).
const serverKeyLen = 32

// token is a session's secret.
type token [tokenLen]byte

func newToken() token {
	var t token
	_, _ = rand.Read(t[:]) // crypto/rand.Read never fails (Go 1.24+)
	return t
}

func (t token) String() string { return hex.EncodeToString(t[:]) }

func parseToken(s string) (token, error) {
	var t token
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != tokenLen {
		return t, fmt.Errorf("session token %q: want %d hex bytes", s, tokenLen)
	}
	copy(t[:], b)
	return t, nil
}

// datagram builds a handshake datagram.
func datagram(magic [magicLen]byte, body [8]byte) []byte {
	b := make([]byte, 0, handshake)
	return append(append(b, magic[:]...), body[:]...)
}

// parseDatagram splits a handshake datagram; ok is false for anything
// else.
func parseDatagram(b []byte) (magic [magicLen]byte, body [8]byte, ok bool) {
	if len(b) != handshake {
		return magic, body, false
	}
	copy(magic[:], b)
	copy(body[:], b[magicLen:])
	return magic, body, true
}

// challenge binds a session token to a UDP address under the server's key.
func challenge(key []byte, t token, from *net.UDPAddr) [8]byte {
	m := hmac.New(sha256.New, key)
	m.Write(t[:])
	m.Write(from.IP.To16())
	var port [2]byte
	binary.BigEndian.PutUint16(port[:], uint16(from.Port))
	m.Write(port[:])
	var c [8]byte
	copy(c[:], m.Sum(nil))
	return c
}

// handshakeStats counts what a server's handshake saw and sent, for its
// log and the tests.
type handshakeStats struct {
	Hellos, Challenges, Ignored int
	ChallengeBytes              int // sent to addresses not yet validated
}

// validatePeer reads udp until a client echoes the challenge for session
// t from its address, answering each hello that carries t with one
// challenge (at most maxChallenges), and returns that address. Datagrams
// without the token or with a wrong challenge are ignored. It ends with
// ctx or after wait.
func validatePeer(ctx context.Context, udp *net.UDPConn, key []byte, t token, wait time.Duration, st *handshakeStats) (*net.UDPAddr, error) {
	stop := context.AfterFunc(ctx, func() { _ = udp.SetReadDeadline(time.Now()) })
	defer stop()
	defer udp.SetReadDeadline(time.Time{})
	_ = udp.SetReadDeadline(time.Now().Add(wait))
	buf := make([]byte, 64)
	for {
		n, from, err := udp.ReadFromUDP(buf)
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("no valid hello from the client within %v (a firewall dropping UDP to the server, or from it?): %w", wait, err)
		}
		magic, body, ok := parseDatagram(buf[:n])
		switch {
		case ok && magic == helloMagic && subtle.ConstantTimeCompare(body[:], t[:]) == 1:
			st.Hellos++
			if st.Challenges >= maxChallenges {
				continue
			}
			c := datagram(challengeMagic, challenge(key, t, from))
			if _, err := udp.WriteToUDP(c, from); err == nil {
				st.Challenges++
				st.ChallengeBytes += len(c)
			}
		case ok && magic == echoMagic:
			want := challenge(key, t, from)
			if subtle.ConstantTimeCompare(body[:], want[:]) == 1 {
				return from, nil
			}
			st.Ignored++
		default:
			st.Ignored++
		}
	}
}

// drainUDP discards the datagrams queued on a socket that has just been
// connected: connect(2) filters what arrives afterwards, not what is
// already queued.
func drainUDP(conn *net.UDPConn) error {
	rc, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var b [64]byte
	return rc.Control(func(fd uintptr) {
		for {
			if _, _, err := unix.Recvfrom(int(fd), b[:], unix.MSG_DONTWAIT); err != nil {
				return
			}
		}
	})
}

// proveAddress is the client's side: from conn (connected to the server's
// UDP port) it sends hellos carrying t every helloEvery and echoes every
// challenge, until done is closed or helloFor passes. It returns when it
// has stopped using conn.
func proveAddress(conn *net.UDPConn, t token, done <-chan struct{}) {
	hello := datagram(helloMagic, t)
	var stopping atomic.Bool
	quit, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-done:
		case <-time.After(helloFor):
		case <-quit:
			return
		}
		stopping.Store(true)
		_ = conn.SetReadDeadline(time.Now()) // a later deadline of the loop's is at most helloEvery away
	}()
	defer func() { close(quit); <-stopped; _ = conn.SetReadDeadline(time.Time{}) }()
	buf := make([]byte, 64)
	for next := time.Now(); !stopping.Load(); {
		if !time.Now().Before(next) {
			if _, err := conn.Write(hello); err != nil && !isRefused(err) {
				return
			}
			next = time.Now().Add(helloEvery)
		}
		_ = conn.SetReadDeadline(next)
		n, err := conn.Read(buf)
		if err != nil {
			continue // the deadline (time for a hello, or stop) or an ICMP error
		}
		if magic, body, ok := parseDatagram(buf[:n]); ok && magic == challengeMagic {
			_, _ = conn.Write(datagram(echoMagic, body))
		}
	}
}

// isRefused: an ICMP port unreachable reported on a connected socket (a
// server port not open yet, or a stray earlier one): keep trying.
func isRefused(err error) bool { return errors.Is(err, unix.ECONNREFUSED) }

// connectPeer connects the server's socket to the validated peer and
// drops whatever others had queued on it.
func connectPeer(udp *net.UDPConn, peer *net.UDPAddr) error {
	if err := endpoint.ConnectUDP(udp, peer); err != nil {
		return err
	}
	return drainUDP(udp)
}
