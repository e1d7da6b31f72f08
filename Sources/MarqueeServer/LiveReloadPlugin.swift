import Foundation
import MarqueeKit

/// Adds the live-reload script to every page. Registered only by `marquee serve`, whose output
/// goes to a preview folder, so a built site never contains it.
package struct LiveReloadPlugin: Plugin {
    package let name = "live-reload"
    /// Loads no items.
    package func itemFiles(in context: BuildContext) -> [URL]? { [] }

    static let scriptPath = "/_marquee/reload.js"

    /// Creates the plugin with its default settings.
    package init() {}

    /// Leaves the file as it is.
    package func postProcess(_ file: inout OutputFile, in context: BuildContext) throws {
        guard file.isPage else { return }
        let tag = "<script src=\"\(Self.scriptPath)\"></script>\n"
        var text = file.text
        if let body = text.range(of: "</body>", options: .backwards) {
            text.insert(contentsOf: tag, at: body.lowerBound)
        } else {
            text += tag
        }
        file.text = text
    }

    /// Listens for build events; reloads on success, shows an overlay with the error on failure.
    static let script = """
        (function () {
          "use strict";
          var source = new EventSource("/_marquee/events");
          source.addEventListener("reload", function () { location.reload(); });
          source.addEventListener("failure", function (event) {
            var box = document.getElementById("marquee-error");
            if (!box) {
              box = document.createElement("pre");
              box.id = "marquee-error";
              box.setAttribute("role", "alert");
              box.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:50vh;overflow:auto;margin:0;padding:16px;" +
                "background:#5c0011;color:#fff;font:13px/1.5 monospace;white-space:pre-wrap;z-index:2147483647";
              document.body.appendChild(box);
            }
            box.textContent = "marquee: the last change did not build\\n\\n" + event.data;
          });
        })();
        """
}
