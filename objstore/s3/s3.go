// Package s3 registers the s3:// scheme with package objstore: Amazon S3
// and S3-compatible stores (MinIO, Cloudflare R2, SeaweedFS, Google Cloud
// Storage's XML API, ...), through the AWS SDK for Go v2.
//
// Import it for its side effect:
//
//	import _ "github.com/carquet-go/carquet/objstore/s3"
//
// Credentials and region come from the SDK's standard chain (environment
// variables, shared config and credentials files and their profiles, SSO,
// web identity, ECS and EC2 instance roles). Options given in a URL's
// query or the database's DSN override them:
//
//	region              the bucket's region (else the chain's, else us-east-1)
//	endpoint            an S3-compatible server, e.g. http://127.0.0.1:9000
//	                    (else AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, as the SDK reads them)
//	url_style           "path" for path-style addressing (the default with an endpoint), "vhost" for virtual-hosted
//	profile             a shared-config profile
//	access_key_id, secret_access_key, session_token
//	                    static credentials (prefer the chain)
//	anonymous           "true" for public buckets: unsigned requests
//	max_attempts        attempts per request, with backoff, on 5xx and throttling (default 5)
package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/carquet-go/carquet/objstore"
)

func init() {
	names := make([]string, 0, len(knownOption))
	for k := range knownOption {
		names = append(names, k)
	}
	objstore.Register("s3", Open, names...)
}

// Open returns the store of bucket, configured by options (see the
// package comment).
func Open(ctx context.Context, bucket string, options map[string]string) (objstore.Store, error) {
	for k := range options {
		if !knownOption[k] && !objstore.IsOption(k) {
			return nil, fmt.Errorf("s3: unknown option %q", k)
		}
	}
	var load []func(*config.LoadOptions) error
	if r := options["region"]; r != "" {
		load = append(load, config.WithRegion(r))
	}
	if p := options["profile"]; p != "" {
		load = append(load, config.WithSharedConfigProfile(p))
	}
	if id := options["access_key_id"]; id != "" {
		load = append(load, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(id, options["secret_access_key"], options["session_token"])))
	}
	if options["anonymous"] == "true" {
		load = append(load, config.WithCredentialsProvider(aws.AnonymousCredentials{}))
	}
	attempts := 5
	if v := options["max_attempts"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("s3: max_attempts %q is not a positive number", v)
		}
		attempts = n
	}
	load = append(load, config.WithRetryer(func() aws.Retryer {
		// No retry quota: a scan's many parallel reads, throttled
		// together, must each keep retrying rather than fail at once.
		return retry.AddWithMaxAttempts(retry.NewStandard(func(o *retry.StandardOptions) { o.RateLimiter = ratelimit.None }), attempts)
	}))
	// Many reads in parallel go to one host: keep their connections.
	load = append(load, config.WithHTTPClient(awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConns = 128
		t.MaxIdleConnsPerHost = 64
	})))
	cfg, err := config.LoadDefaultConfig(ctx, load...)
	if err != nil {
		return nil, fmt.Errorf("s3: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	endpoint := options["endpoint"]
	custom := endpoint != "" || os.Getenv("AWS_ENDPOINT_URL_S3") != "" || os.Getenv("AWS_ENDPOINT_URL") != ""
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if custom {
			if endpoint != "" {
				o.BaseEndpoint = aws.String(endpoint)
			}
			o.UsePathStyle = options["url_style"] != "vhost"
			// S3-compatible servers often take neither the trailing
			// checksums nor the chunked bodies the SDK sends by default.
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		} else if options["url_style"] == "path" {
			o.UsePathStyle = true
		}
	})
	return &store{c: client, bucket: bucket}, nil
}

var knownOption = map[string]bool{
	"region": true, "endpoint": true, "url_style": true, "profile": true,
	"access_key_id": true, "secret_access_key": true, "session_token": true,
	"anonymous": true, "max_attempts": true,
}

type store struct {
	c      *s3.Client
	bucket string
}

// wrap names the object in an error of the SDK, as fs.ErrNotExist or
// fs.ErrExist where the store says so.
func (s *store) wrap(key string, err error) error {
	if err == nil {
		return nil
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "NoSuchKey", "NotFound":
			return fmt.Errorf("s3://%s/%s: %w", s.bucket, key, fs.ErrNotExist)
		case "NoSuchBucket":
			return fmt.Errorf("s3://%s: no such bucket: %w", s.bucket, fs.ErrNotExist)
		case "PreconditionFailed", "ConditionalRequestConflict":
			return fmt.Errorf("s3://%s/%s: %w", s.bucket, key, fs.ErrExist)
		}
	}
	return fmt.Errorf("s3://%s/%s: %w", s.bucket, key, err)
}

func (s *store) Stat(ctx context.Context, key string) (objstore.Entry, error) {
	out, err := s.c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return objstore.Entry{}, s.wrap(key, err)
	}
	e := objstore.Entry{Key: key, Size: aws.ToInt64(out.ContentLength), ETag: aws.ToString(out.ETag)}
	if out.LastModified != nil {
		e.ModTime = *out.LastModified
	}
	return e, nil
}

func (s *store) List(ctx context.Context, prefix string) ([]objstore.Entry, error) {
	var out []objstore.Entry
	p := s3.NewListObjectsV2Paginator(s.c, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, s.wrap(prefix, err)
		}
		for _, o := range page.Contents {
			e := objstore.Entry{Key: aws.ToString(o.Key), Size: aws.ToInt64(o.Size), ETag: aws.ToString(o.ETag)}
			if o.LastModified != nil {
				e.ModTime = *o.LastModified
			}
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func (s *store) ReadRange(ctx context.Context, key string, off, n int64, etag string) (io.ReadCloser, error) {
	rng := fmt.Sprintf("bytes=%d-%d", off, off+n-1)
	out, err := s.c.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key, Range: &rng})
	if err != nil {
		return nil, s.wrap(key, err)
	}
	if etag != "" && out.ETag != nil && unquote(*out.ETag) != unquote(etag) {
		out.Body.Close()
		return nil, fmt.Errorf("s3://%s/%s: %w", s.bucket, key, objstore.ErrChanged)
	}
	return out.Body, nil
}

func unquote(s string) string { return strings.Trim(s, `"`) }

func (s *store) Delete(ctx context.Context, key string) error {
	_, err := s.c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		if err = s.wrap(key, err); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	return err
}

// partSize is the size of a multipart upload's parts (S3 takes 5 MiB at
// least, but for the last); an object smaller than one part is one PUT.
const partSize = 8 << 20

// uploadsInFlight bounds the parts one upload sends at once.
const uploadsInFlight = 4

func (s *store) Create(ctx context.Context, key string, ifAbsent bool) (objstore.Upload, error) {
	return &upload{s: s, ctx: ctx, key: key, ifAbsent: ifAbsent, sem: make(chan struct{}, uploadsInFlight)}, nil
}

// CreateIfMatch starts replacing the object at key while it still has
// the ETag etag: a conditional PUT (If-Match), which S3 checks and makes
// in one step (objstore.Replacer).
func (s *store) CreateIfMatch(ctx context.Context, key, etag string) (objstore.Upload, error) {
	return &upload{s: s, ctx: ctx, key: key, ifMatch: aws.String(etag), sem: make(chan struct{}, uploadsInFlight)}, nil
}

// upload buffers an object; past one part it becomes a multipart upload,
// whose parts are sent while the rest is written. Nothing is visible
// until CompleteMultipartUpload (or the single PUT) succeeds: a process
// killed before leaves no object, only an incomplete upload that the
// bucket's lifecycle rules clear.
type upload struct {
	s        *store
	ctx      context.Context
	key      string
	ifAbsent bool
	// ifMatch, when set, is the ETag the object must still have
	// (CreateIfMatch).
	ifMatch *string
	buf     []byte

	id    *string
	next  int32
	sem   chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	parts []types.CompletedPart
	err   error
	done  bool
}

func (u *upload) Write(p []byte) (int, error) {
	if u.done {
		return 0, errors.New("s3: write after commit or abort")
	}
	if err := u.failed(); err != nil {
		return 0, err
	}
	u.buf = append(u.buf, p...)
	for len(u.buf) >= partSize {
		if err := u.sendPart(u.buf[:partSize:partSize]); err != nil {
			return 0, err
		}
		u.buf = append([]byte(nil), u.buf[partSize:]...)
	}
	return len(p), nil
}

func (u *upload) failed() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.err
}

func (u *upload) fail(err error) {
	u.mu.Lock()
	if u.err == nil {
		u.err = err
	}
	u.mu.Unlock()
}

// sendPart starts the multipart upload if need be and sends part in the
// background.
func (u *upload) sendPart(part []byte) error {
	if u.id == nil {
		out, err := u.s.c.CreateMultipartUpload(u.ctx, &s3.CreateMultipartUploadInput{Bucket: &u.s.bucket, Key: &u.key})
		if err != nil {
			return u.s.wrap(u.key, err)
		}
		u.id = out.UploadId
	}
	u.next++
	num := u.next
	u.sem <- struct{}{}
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		defer func() { <-u.sem }()
		out, err := u.s.c.UploadPart(u.ctx, &s3.UploadPartInput{
			Bucket: &u.s.bucket, Key: &u.key, UploadId: u.id, PartNumber: aws.Int32(num),
			Body: bytes.NewReader(part), ContentLength: aws.Int64(int64(len(part))),
		})
		if err != nil {
			u.fail(fmt.Errorf("s3://%s/%s: part %d: %w", u.s.bucket, u.key, num, err))
			return
		}
		u.mu.Lock()
		u.parts = append(u.parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
		u.mu.Unlock()
	}()
	return nil
}

func (u *upload) Commit() error {
	if u.done {
		return errors.New("s3: upload already finished")
	}
	u.done = true
	var ifNoneMatch *string
	if u.ifAbsent {
		ifNoneMatch = aws.String("*")
	}
	if u.id == nil {
		_, err := u.s.c.PutObject(u.ctx, &s3.PutObjectInput{
			Bucket: &u.s.bucket, Key: &u.key, Body: bytes.NewReader(u.buf),
			ContentLength: aws.Int64(int64(len(u.buf))), IfNoneMatch: ifNoneMatch, IfMatch: u.ifMatch,
		})
		u.buf = nil
		return u.wrapCommit(err)
	}
	if len(u.buf) > 0 {
		if err := u.sendPart(u.buf); err != nil {
			u.abort()
			return err
		}
		u.buf = nil
	}
	u.wg.Wait()
	if err := u.failed(); err != nil {
		u.abort()
		return err
	}
	sort.Slice(u.parts, func(i, j int) bool { return *u.parts[i].PartNumber < *u.parts[j].PartNumber })
	_, err := u.s.c.CompleteMultipartUpload(u.ctx, &s3.CompleteMultipartUploadInput{
		Bucket: &u.s.bucket, Key: &u.key, UploadId: u.id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: u.parts}, IfNoneMatch: ifNoneMatch, IfMatch: u.ifMatch,
	})
	if err != nil {
		u.abort()
		return u.wrapCommit(err)
	}
	return nil
}

// wrapCommit is wrap for the request that makes the object visible: a
// failed If-Match (the object is no longer the one read, or is gone) is
// objstore.ErrChanged.
func (u *upload) wrapCommit(err error) error {
	err = u.s.wrap(u.key, err)
	if u.ifMatch != nil && (errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrNotExist)) {
		return fmt.Errorf("s3://%s/%s: %w", u.s.bucket, u.key, objstore.ErrChanged)
	}
	return err
}

func (u *upload) Abort() error {
	if u.done {
		return nil
	}
	u.done = true
	u.buf = nil
	return u.abort()
}

func (u *upload) abort() error {
	if u.id == nil {
		return nil
	}
	u.wg.Wait()
	// A cancelled statement still removes its parts.
	_, err := u.s.c.AbortMultipartUpload(context.WithoutCancel(u.ctx), &s3.AbortMultipartUploadInput{Bucket: &u.s.bucket, Key: &u.key, UploadId: u.id})
	return err
}
