// Package browser loads a local HTML page in headless Chromium through
// the DevTools protocol over a pipe (--remote-debugging-pipe: no port, no
// WebSocket, no dependency) and reports what a test needs to know: console
// errors and uncaught exceptions, every network request the page made, the
// result of script probes, and a PNG screenshot.
package browser

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Find returns the path of a Chromium binary: $CHROMIUM if set, else the
// first of chromium, chromium-browser, google-chrome,
// google-chrome-stable on $PATH. It fails when none is found.
func Find() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", errors.New("browser: no Chromium found (install Debian's chromium package, or set CHROMIUM to the binary)")
}

// Mouse is a mouse event to dispatch before the screenshot
// (Input.dispatchMouseEvent): Type "mouseMoved" or "mouseWheel", at X, Y
// CSS pixels, with DeltaY for a wheel.
type Mouse struct {
	Type   string
	X, Y   float64
	DeltaY float64
}

// Options configure Load.
type Options struct {
	// Width and Height of the viewport in CSS pixels (default 1400×900).
	Width, Height int
	// Probes are JavaScript expressions evaluated after the page loaded
	// and the mouse events were dispatched; their results (JSON) are in
	// Result.Probes, in order.
	Probes []string
	// Mouse events to dispatch after loading, in order.
	Mouse []Mouse
	// Timeout bounds the whole run (default 60 s).
	Timeout time.Duration
	// Fragment is appended to the page's URL after a "#".
	Fragment string
}

// Result is what Load saw.
type Result struct {
	// ConsoleErrors holds console.error/assert calls, uncaught exceptions
	// and browser log entries of level error.
	ConsoleErrors []string
	// Requests holds the URL of every network request, the page's own
	// file:// URL excepted.
	Requests []string
	// Probes holds each probe's value as JSON.
	Probes []string
	// PNG is the screenshot.
	PNG []byte
}

// Load opens the local file page in headless Chromium (binary chrome),
// with a fresh profile directory and the network features that Chromium
// starts on its own switched off, and returns what it saw.
func Load(chrome, page string, o Options) (*Result, error) {
	if o.Width == 0 {
		o.Width, o.Height = 1400, 900
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	abs, err := filepath.Abs(page)
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	profile, err := os.MkdirTemp("", "chrono-browser-*")
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	toChrome, ourEnd, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	fromChrome, chromeEnd, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	cmd := exec.CommandContext(ctx, chrome,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--no-first-run", "--no-default-browser-check", "--disable-sync",
		"--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
		"--user-data-dir="+profile, "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, chromeEnd} // fd 3: commands in, fd 4: messages out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("browser: starting %s: %w", chrome, err)
	}
	toChrome.Close()
	chromeEnd.Close()
	c := &conn{w: ourEnd, pending: map[int]chan reply{}, events: make(chan event, 1024)}
	go c.readLoop(fromChrome)
	res, err := c.run(ctx, "file://"+abs, o)
	ourEnd.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	if err != nil {
		return nil, fmt.Errorf("browser: %w (chromium said: %s)", err, lastLines(stderr.String(), 5))
	}
	return res, nil
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, " | ")
}

type reply struct {
	Result json.RawMessage
	Err    error
}

type event struct {
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	SessionID string          `json:"sessionId"`
}

// conn is a DevTools protocol connection over the pipe: messages are JSON
// objects terminated by a NUL byte.
type conn struct {
	mu      sync.Mutex
	w       io.Writer
	next    int
	pending map[int]chan reply
	events  chan event
	readErr error
}

func (c *conn) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			for _, ch := range c.pending {
				ch <- reply{Err: fmt.Errorf("connection closed: %w", err)}
			}
			c.pending = map[int]chan reply{}
			c.mu.Unlock()
			close(c.events)
			return
		}
		msg = msg[:len(msg)-1]
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
			event
		}
		if json.Unmarshal(msg, &m) != nil {
			continue
		}
		if m.ID == 0 {
			c.events <- m.event
			continue
		}
		c.mu.Lock()
		ch := c.pending[m.ID]
		delete(c.pending, m.ID)
		c.mu.Unlock()
		if ch != nil {
			r := reply{Result: m.Result}
			if m.Error != nil {
				r.Err = errors.New(m.Error.Message)
			}
			ch <- r
		}
	}
}

func (c *conn) call(ctx context.Context, session, method string, params any, out any) error {
	c.mu.Lock()
	if c.readErr != nil {
		c.mu.Unlock()
		return fmt.Errorf("%s: connection closed: %w", method, c.readErr)
	}
	c.next++
	id := c.next
	ch := make(chan reply, 1)
	c.pending[id] = ch
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	b, _ := json.Marshal(msg)
	_, err := c.w.Write(append(b, 0))
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Err != nil {
			return fmt.Errorf("%s: %w", method, r.Err)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// run drives one page load.
func (c *conn) run(ctx context.Context, url string, o Options) (*Result, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := c.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		return nil, err
	}
	s := att.SessionID
	res := &Result{}
	var mu sync.Mutex
	loaded := make(chan struct{}, 1)
	go func() {
		for ev := range c.events {
			if ev.SessionID != s {
				continue
			}
			mu.Lock()
			switch ev.Method {
			case "Page.loadEventFired":
				select {
				case loaded <- struct{}{}:
				default:
				}
			case "Runtime.exceptionThrown":
				var p struct {
					Details struct {
						Text      string `json:"text"`
						Exception struct {
							Description string `json:"description"`
						} `json:"exception"`
					} `json:"exceptionDetails"`
				}
				json.Unmarshal(ev.Params, &p)
				res.ConsoleErrors = append(res.ConsoleErrors, "exception: "+p.Details.Text+" "+p.Details.Exception.Description)
			case "Runtime.consoleAPICalled":
				var p struct {
					Type string `json:"type"`
					Args []struct {
						Value       any    `json:"value"`
						Description string `json:"description"`
					} `json:"args"`
				}
				json.Unmarshal(ev.Params, &p)
				if p.Type == "error" || p.Type == "assert" {
					var parts []string
					for _, a := range p.Args {
						parts = append(parts, fmt.Sprint(a.Value, a.Description))
					}
					res.ConsoleErrors = append(res.ConsoleErrors, "console."+p.Type+": "+strings.Join(parts, " "))
				}
			case "Log.entryAdded":
				var p struct {
					Entry struct {
						Level, Text, URL string
					} `json:"entry"`
				}
				json.Unmarshal(ev.Params, &p)
				if p.Entry.Level == "error" {
					res.ConsoleErrors = append(res.ConsoleErrors, "log: "+p.Entry.Text+" "+p.Entry.URL)
				}
			case "Network.requestWillBeSent":
				var p struct {
					Request struct {
						URL string `json:"url"`
					} `json:"request"`
				}
				json.Unmarshal(ev.Params, &p)
				if u, _, _ := strings.Cut(p.Request.URL, "#"); u != url {
					res.Requests = append(res.Requests, p.Request.URL)
				}
			}
			mu.Unlock()
		}
	}()
	for _, m := range []string{"Runtime.enable", "Log.enable", "Network.enable", "Page.enable"} {
		if err := c.call(ctx, s, m, map[string]any{}, nil); err != nil {
			return nil, err
		}
	}
	if err := c.call(ctx, s, "Emulation.setDeviceMetricsOverride", map[string]any{"width": o.Width, "height": o.Height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		return nil, err
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	full := url
	if o.Fragment != "" {
		full += "#" + o.Fragment
	}
	if err := c.call(ctx, s, "Page.navigate", map[string]any{"url": full}, &nav); err != nil {
		return nil, err
	}
	if nav.ErrorText != "" {
		return nil, fmt.Errorf("navigating to %s: %s", url, nav.ErrorText)
	}
	select {
	case <-loaded:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the page to load: %w", ctx.Err())
	}
	eval := func(expr string) (string, error) {
		var r struct {
			Result struct {
				Value json.RawMessage `json:"value"`
			} `json:"result"`
			Exception *struct {
				Text string `json:"text"`
			} `json:"exceptionDetails"`
		}
		if err := c.call(ctx, s, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r); err != nil {
			return "", err
		}
		if r.Exception != nil {
			return "", fmt.Errorf("evaluating %q: %s", expr, r.Exception.Text)
		}
		return string(r.Result.Value), nil
	}
	frame := "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
	if _, err := eval(frame); err != nil {
		return nil, err
	}
	for _, m := range o.Mouse {
		p := map[string]any{"type": m.Type, "x": m.X, "y": m.Y}
		if m.Type == "mouseWheel" {
			p["deltaX"], p["deltaY"] = 0, m.DeltaY
		}
		if err := c.call(ctx, s, "Input.dispatchMouseEvent", p, nil); err != nil {
			return nil, err
		}
	}
	if _, err := eval(frame); err != nil {
		return nil, err
	}
	for _, p := range o.Probes {
		v, err := eval(p)
		if err != nil {
			return nil, err
		}
		res.Probes = append(res.Probes, v)
	}
	var shot struct {
		Data string `json:"data"`
	}
	if err := c.call(ctx, s, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return nil, fmt.Errorf("decoding the screenshot: %w", err)
	}
	c.call(ctx, "", "Browser.close", map[string]any{}, nil) // best effort: the process is waited for or killed after
	mu.Lock()
	defer mu.Unlock()
	out := *res
	out.PNG = png
	return &out, nil
}
