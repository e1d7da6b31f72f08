import Foundation
import Hummingbird
import NIOCore

/// Answers what no route and no file answered with the site's own `404.html`, as static hosts
/// do, or a plain page while the site has none.
struct SiteNotFoundPage<Context: RequestContext>: RouterMiddleware {
    /// The preview folder.
    let folder: URL

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            let page = (try? Data(contentsOf: folder.appending(path: "404.html")))
                ?? Data("<!doctype html><title>Not found</title><p>Not found.</p><script src=\"\(LiveReloadPlugin.scriptPath)\"></script>".utf8)
            return Response(
                status: .notFound, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: page)))
        }
    }
}
