"""A minimal OTLP/HTTP receiver for trying out a server's traces and metrics without Docker.

It listens on 127.0.0.1:4318 (or the address given as the first argument), accepts
`POST /v1/traces` and `POST /v1/metrics` in both OTLP/HTTP encodings (`http/protobuf` and
`http/json`), decodes them with the official `opentelemetry-proto` definitions and prints one
line per span and per metric data point. Not a collector: nothing is stored or forwarded.

    python3 -m venv otlp && otlp/bin/pip install opentelemetry-proto
    otlp/bin/python docs/production/otlp_receiver.py
"""

import base64
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

# The largest request body read (a bigger one is refused with 413).
MAX_BODY = 16 * 1024 * 1024

KINDS = {0: "UNSPECIFIED", 1: "INTERNAL", 2: "SERVER", 3: "CLIENT", 4: "PRODUCER", 5: "CONSUMER"}


# OTLP/JSON writes these ids in hex, where protobuf's JSON mapping expects base64.
HEX_IDS = {"traceId", "spanId", "parentSpanId"}


def hex_ids_to_base64(node):
    """The decoded OTLP/JSON document, its hex ids as protobuf's JSON mapping reads bytes."""
    if isinstance(node, dict):
        return {
            key: base64.b64encode(bytes.fromhex(item)).decode()
            if key in HEX_IDS and isinstance(item, str)
            else hex_ids_to_base64(item)
            for key, item in node.items()
        }
    if isinstance(node, list):
        return [hex_ids_to_base64(item) for item in node]
    return node


def value(any_value):
    """The Python value of an OTLP AnyValue."""
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


def attributes(key_values):
    return {kv.key: value(kv.value) for kv in key_values}


def service(resource):
    return attributes(resource.attributes).get("service.name", "?")


def print_spans(request):
    for resource_spans in request.resource_spans:
        name = service(resource_spans.resource)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                attrs = attributes(span.attributes)
                print(
                    f"span {name} trace={span.trace_id.hex()} {KINDS.get(span.kind, span.kind)} "
                    f"{span.name!r} {attrs}",
                    flush=True,
                )


def print_metrics(request):
    for resource_metrics in request.resource_metrics:
        name = service(resource_metrics.resource)
        for scope_metrics in resource_metrics.scope_metrics:
            for metric in scope_metrics.metrics:
                kind = metric.WhichOneof("data")
                for point in getattr(metric, kind).data_points:
                    count = getattr(point, "count", None)
                    shown = f"count={count}" if count is not None else f"value={point.as_int or point.as_double}"
                    print(
                        f"metric {name} {metric.name} {shown} {attributes(point.attributes)}",
                        flush=True,
                    )


ROUTES = {
    "/v1/traces": (ExportTraceServiceRequest, ExportTraceServiceResponse, print_spans),
    "/v1/metrics": (ExportMetricsServiceRequest, ExportMetricsServiceResponse, print_metrics),
}


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        route = ROUTES.get(self.path)
        if route is None:
            self.send_error(404)
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self.send_error(413)
            return
        body = self.rfile.read(length)
        request_type, response_type, show = route
        json_body = self.headers.get("Content-Type", "").startswith("application/json")
        request = request_type()
        try:
            if json_body:
                document = hex_ids_to_base64(json.loads(body))
                json_format.ParseDict(document, request, ignore_unknown_fields=True)
            else:
                request.ParseFromString(body)
        except Exception as error:  # a malformed export: refused, the receiver goes on
            self.send_error(400, str(error))
            return
        show(request)
        if json_body:
            out, content_type = json_format.MessageToJson(response_type()).encode(), "application/json"
        else:
            out, content_type = response_type().SerializeToString(), "application/x-protobuf"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


def main():
    host, _, port = (sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:4318").rpartition(":")
    server = ThreadingHTTPServer((host or "127.0.0.1", int(port)), Receiver)
    print(f"OTLP/HTTP receiver on http://{host or '127.0.0.1'}:{port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
