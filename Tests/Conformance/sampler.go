// The Go side of scripts/conformance: draws waits with the libraries' own backoff code, as
// Debian packages their sources (golang-google-grpc-dev, golang-github-cenkalti-backoff-dev).
//
// Built in GOPATH mode inside a copy of grpc-go's tree (scripts/conformance), so that it may import
// grpc-go's internal/backoff, the code ClientConn's reconnection uses. grpcrand is seeded through
// a one-line hook that scripts/conformance adds to that copy; the backoff code is not touched.
//
//	sampler grpc-connection RUNS SEED     every wait of a connection that never succeeds (99 retries)
//	sampler cenkalti-default RUNS SEED    NewExponentialBackOff() until Stop, on a clock the waits advance
//
// Output: CSV run,retry,wait_ns, runs and retries from 1.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"time"

	cenkalti "github.com/cenkalti/backoff"
	grpcbackoff "google.golang.org/grpc/internal/backoff"
	"google.golang.org/grpc/internal/grpcrand"
)

// virtualClock is the time a request has waited so far: attempts take no time.
type virtualClock struct{ now time.Time }

func (c *virtualClock) Now() time.Time { return c.now }

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: sampler grpc-connection|cenkalti-default RUNS SEED")
		os.Exit(64)
	}
	runs, err1 := strconv.Atoi(os.Args[2])
	seed, err2 := strconv.ParseInt(os.Args[3], 10, 64)
	if err1 != nil || err2 != nil || runs < 1 {
		fmt.Fprintln(os.Stderr, "sampler: RUNS must be a positive integer and SEED an integer")
		os.Exit(64)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fmt.Fprintln(out, "run,retry,wait_ns")
	switch os.Args[1] {
	case "grpc-connection":
		grpcrand.SeedForConformance(seed)
		strategy := grpcbackoff.DefaultExponential
		for run := 1; run <= runs; run++ {
			for retries := 0; retries < 99; retries++ {
				fmt.Fprintf(out, "%d,%d,%d\n", run, retries+1, strategy.Backoff(retries).Nanoseconds())
			}
		}
	case "cenkalti-default":
		rand.Seed(seed)
		for run := 1; run <= runs; run++ {
			clock := &virtualClock{now: time.Unix(0, 0)}
			b := cenkalti.NewExponentialBackOff()
			b.Clock = clock
			b.Reset()
			for retry := 1; ; retry++ {
				next := b.NextBackOff()
				if next == b.Stop {
					break
				}
				fmt.Fprintf(out, "%d,%d,%d\n", run, retry, next.Nanoseconds())
				clock.now = clock.now.Add(next)
			}
		}
	default:
		fmt.Fprintf(os.Stderr, "sampler: unknown library %q (grpc-connection or cenkalti-default)\n", os.Args[1])
		os.Exit(64)
	}
}
