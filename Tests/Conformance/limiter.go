// Drives aws-sdk-go-v2's own adaptive rate limiter (aws/retry adaptive_ratelimit.go, unexported)
// through a `backoff limiter` events file on a fake clock, and prints its state after each event as
// CSV: at_s,delay_s,measured_rate,fill_rate,capacity,tokens,enabled.
//
// scripts/conformance copies this file into a copy of the SDK's aws/retry package (so that it may
// reach the unexported limiter and internal/sdk's clock); the SDK's own files are not changed.
//
//	limiter EVENTS.csv [CREATED_AT_SECONDS]
package retry

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/internal/sdk"
)

// ReplayForConformance prints the limiter's state after each event of the file at path, the limiter
// made at createdAt seconds (or at the first event's time when createdAt is NaN).
func ReplayForConformance(path string, createdAt float64, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return err
	}
	if len(rows) < 2 || rows[0][0] != "time_s" || rows[0][1] != "event" {
		return fmt.Errorf("%s: expected the columns time_s,event", path)
	}
	seconds := func(text string) (int64, error) {
		v, err := strconv.ParseFloat(text, 64)
		return int64(math.Round(v * 1e9)), err
	}
	first, err := seconds(rows[1][0])
	if err != nil {
		return err
	}
	now := first
	if !math.IsNaN(createdAt) {
		now = int64(math.Round(createdAt * 1e9))
	}
	sdk.NowTime = func() time.Time { return time.Unix(0, now) }
	limiter := newAdaptiveRateLimit()
	number := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	fmt.Fprintln(out, "at_s,delay_s,measured_rate,fill_rate,capacity,tokens,enabled")
	for _, row := range rows[1:] {
		t, err := seconds(row[0])
		if err != nil {
			return err
		}
		if t > now {
			now = t
		}
		at, delay := now, ""
		switch row[1] {
		case "send":
			// GetAttemptToken's loop: look, sleep the wait it asks (whole ns, at least one), look again.
			for {
				ok, wait := limiter.AcquireToken(1)
				if ok {
					break
				}
				if wait < 1 {
					wait = 1
				}
				now += int64(wait)
			}
			delay = number(float64(now-at) / 1e9)
		case "success", "error":
			limiter.Update(false)
		case "throttle":
			limiter.Update(true)
		default:
			return fmt.Errorf("%s: unknown event %q", path, row[1])
		}
		enabled := "no"
		if limiter.tokenBucketEnabled {
			enabled = "yes"
		}
		fmt.Fprintf(out, "%s,%s,%s,%s,%s,%s,%s\n", number(float64(at)/1e9), delay, number(limiter.measuredTxRate),
			number(limiter.fillRate), number(limiter.tokenBucket.maxCapacity),
			number(limiter.tokenBucket.remainingTokens), enabled)
	}
	return nil
}
