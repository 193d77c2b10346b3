package field

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Optional shared-secret authentication of requests (`--token`,
// LEOLAB_TOKEN). A signed request carries a fresh random nonce, the
// client's time and an HMAC-SHA256 (RFC 2104) under the secret of a
// canonical form of the request with both. A server with a secret
// refuses, before anything else, a request without a tag, with a wrong
// MAC, with a time outside ±authWindow of its own or with a nonce it has
// already seen in that window (a replay). It authenticates the client to
// the server, not the reverse, and encrypts nothing.
const (
	// authWindow: the clocks of the two hosts must agree to this much
	// (the customary Kerberos allowance); a captured request can be
	// replayed only within it, and only once, to a server that restarted.
	authWindow = 5 * time.Minute
	nonceLen   = 16
	// maxNonces bounds the nonces remembered (~100 B each): a server
	// signed requests arrive at faster than maxNonces per authWindow
	// refuses new ones until old ones expire.
	maxNonces = 1 << 16
)

// authTag is a request's proof of the secret.
type authTag struct {
	Nonce      string `json:"nonce"` // hex
	TimeUnixNs int64  `json:"time_unix_ns"`
	MAC        string `json:"mac"` // hex HMAC-SHA256
}

var (
	errNoAuth    = errors.New("this server requires a token (--token or LEOLAB_TOKEN); the request has none")
	errWrongAuth = errors.New("authentication failed: wrong token")
)

// authMAC is the MAC of r (its Auth aside) with nonce and time.
func authMAC(secret string, r request, nonce string, timeNs int64) []byte {
	r.Auth = nil
	body, err := json.Marshal(r)
	if err != nil {
		panic("leolab BUG: request does not marshal: " + err.Error())
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("leolab-request-v2\n" + nonce + "\n" + strconv.FormatInt(timeNs, 10) + "\n"))
	m.Write(body)
	return m.Sum(nil)
}

// sign tags r with secret at now.
func sign(secret string, r *request, now time.Time) {
	var n [nonceLen]byte
	_, _ = rand.Read(n[:])
	nonce := hex.EncodeToString(n[:])
	t := now.UnixNano()
	r.Auth = &authTag{Nonce: nonce, TimeUnixNs: t, MAC: hex.EncodeToString(authMAC(secret, *r, nonce, t))}
}

// replayGuard remembers the nonces of the requests it has accepted
// within authWindow.
type replayGuard struct {
	mu   sync.Mutex
	seen map[string]time.Time // nonce → when it may be forgotten
}

func newReplayGuard() *replayGuard { return &replayGuard{seen: make(map[string]time.Time)} }

// verify checks r's tag against secret at now and remembers its nonce.
func (g *replayGuard) verify(secret string, r *request, now time.Time) error {
	a := r.Auth
	if a == nil {
		return errNoAuth
	}
	mac, err := hex.DecodeString(a.MAC)
	if err != nil || len(a.Nonce) != 2*nonceLen || !hmac.Equal(mac, authMAC(secret, *r, a.Nonce, a.TimeUnixNs)) {
		return errWrongAuth
	}
	if d := now.Sub(time.Unix(0, a.TimeUnixNs)); d > authWindow || d < -authWindow {
		return fmt.Errorf("authentication failed: the request's time is %v off the server's clock (allowed ±%v; is either clock wrong?)", d.Round(time.Second), authWindow)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, dup := g.seen[a.Nonce]; dup {
		return errors.New("authentication failed: a replayed request")
	}
	if len(g.seen) >= maxNonces {
		for n, exp := range g.seen {
			if now.After(exp) {
				delete(g.seen, n)
			}
		}
		if len(g.seen) >= maxNonces {
			return errors.New("server busy: too many signed requests within the replay window; try again later")
		}
	}
	g.seen[a.Nonce] = time.Unix(0, a.TimeUnixNs).Add(authWindow)
	return nil
}
