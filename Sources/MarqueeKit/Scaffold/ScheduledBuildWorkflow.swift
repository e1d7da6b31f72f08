/// The GitHub Actions workflow `marquee init` writes: it builds the site on every push, every
/// hour and on demand, keeps `.marquee-cache/` between runs (the last good copy of each remote
/// source, and what their servers said about asking again), and publishes `Site/` with GitHub
/// Pages. Marquee itself is built from its repository, named by the `MARQUEE_GIT` variable.
enum ScheduledBuildWorkflow {
    /// Where the workflow goes in the site's repository.
    static let path = ".github/workflows/marquee.yml"

    static let text = #"""
        # Builds the site on every push, every hour and on demand, and publishes it with GitHub Pages.
        #
        # To use it: in the repository's settings, choose Pages > Source: GitHub Actions; under
        # Secrets and variables > Actions > Variables, set MARQUEE_GIT to the address of Marquee's
        # git repository (and MARQUEE_REF to a tag or branch, to pin one). Set base_url in
        # Content/site.yml to the address Pages gives the site.
        name: Build and publish the gallery

        on:
          push:
            branches: [main]
          schedule:
            - cron: "17 * * * *"   # every hour, at 17 minutes past (away from the busy top of the hour)
          workflow_dispatch:

        permissions:
          contents: read
          pages: write
          id-token: write

        concurrency:
          group: pages
          cancel-in-progress: false

        jobs:
          build:
            runs-on: ubuntu-24.04
            steps:
              - uses: actions/checkout@v4
              - name: Fetch Marquee
                env:
                  MARQUEE_GIT: ${{ vars.MARQUEE_GIT }}
                  MARQUEE_REF: ${{ vars.MARQUEE_REF }}
                run: |
                  test -n "$MARQUEE_GIT" || { echo "::error::Set the MARQUEE_GIT variable to the address of Marquee's git repository."; exit 1; }
                  git clone --quiet --depth 1 ${MARQUEE_REF:+--branch "$MARQUEE_REF"} "$MARQUEE_GIT" "$RUNNER_TEMP/marquee"
                  echo "MARQUEE_COMMIT=$(git -C "$RUNNER_TEMP/marquee" rev-parse HEAD)" >> "$GITHUB_ENV"
              - uses: swift-actions/setup-swift@v2
                with:
                  swift-version: "6.2"
              - name: Install the Debian packages Marquee needs
                run: bash "$RUNNER_TEMP/marquee/scripts/setup"
              # Marquee is built once per commit of it, not on every run.
              - uses: actions/cache@v4
                with:
                  path: ${{ runner.temp }}/marquee/.build
                  key: marquee-build-${{ runner.os }}-${{ env.MARQUEE_COMMIT }}
              - name: Build Marquee
                run: swift build -c release --static-swift-stdlib --product marquee --package-path "$RUNNER_TEMP/marquee"
              # The last good copy of each remote source and when its server wants to be asked
              # again: without it, every run would ask every server and lose the copies.
              - uses: actions/cache@v4
                with:
                  path: .marquee-cache
                  key: marquee-cache-${{ github.run_id }}
                  restore-keys: marquee-cache-
              - name: Build the site
                run: '"$RUNNER_TEMP/marquee/.build/release/marquee" build --root .'
              - uses: actions/upload-pages-artifact@v3
                with:
                  path: Site
          publish:
            needs: build
            runs-on: ubuntu-24.04
            environment:
              name: github-pages
              url: ${{ steps.deployment.outputs.page_url }}
            steps:
              - id: deployment
                uses: actions/deploy-pages@v4

        """#
}
