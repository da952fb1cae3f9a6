"""What the browser tests drive: morne serve on a loopback port, Debian's headless Chromium
through Selenium, the page with waits on the client's own idea of being busy, and screenshots
compared with stored references (python3-pil)."""

import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
import ws_client  # noqa: E402,F401  (re-exported for the tests)

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.chrome.service import Service as ChromeService
    from selenium.webdriver.support.ui import Select
    from PIL import Image, ImageChops, ImageStat
except ImportError:
    webdriver = None

GOLDEN = os.path.join(HERE, "..", "golden")
REFERENCES = os.path.join(HERE, "references")
CROSSING_BATTLE = os.path.join(GOLDEN, "crossing_battle.json")
BOMBARDMENT = os.path.join(GOLDEN, "duel_bombardment.json")


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def missing_tools():
    """Why the browser tests cannot run here, or None."""
    if webdriver is None or not shutil.which("chromium") or not shutil.which("chromedriver"):
        return ("chromium, chromium-driver, python3-selenium or python3-pil is missing; "
                "`scripts/setup.sh` installs them")
    return None


class Server:
    """morne serve on `port` (0: a free one, then kept, so that a restart comes back there)."""

    def __init__(self, morne, models, port=0, options=()):
        self.options = list(options)
        self.morne = morne
        self.models = models
        self.port = port
        self.proc = None

    def start(self):
        env = dict(os.environ, MORNE_MODELS=self.models)
        for _ in range(50):  # a restart may wait for the port to be free again
            self.proc = subprocess.Popen(
                [self.morne, "serve", "--port", str(self.port), "--max-search-ms", "20000",
                 *self.options],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
            for _ in range(3):
                line = self.proc.stdout.readline()
                if "http://" in line:
                    self.port = int(line.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
                    return self
            self.proc.kill()
            self.proc.communicate()
            time.sleep(0.2)
        raise AssertionError("morne serve printed no address")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.communicate(timeout=30)


def browser(width=1024, height=768):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                "--disable-dev-shm-usage", "--force-device-scale-factor=1", "--hide-scrollbars",
                "--font-render-hinting=none"]:
        options.add_argument(arg)
    service = ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    set_viewport(driver, width, height)
    return driver


def set_viewport(driver, width, height):
    """Makes the page's viewport (not the window) `width` x `height`."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


class Client:
    """The page, with waits on the client's own idea of being busy."""

    def __init__(self, driver, server, shots):
        self.d = driver
        self.server = server
        self.shots = shots

    @property
    def port(self):
        return self.server.port

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def idle(self, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            if self.js("const m = window.morne; return !!m && !!m.engine && !m.busy && "
                       "m.engine.pending.size === 0"):
                time.sleep(0.05)
                if self.js("return !window.morne.busy && window.morne.engine.pending.size === 0"):
                    return
            time.sleep(0.05)
        raise AssertionError("the client stayed busy")

    def wait(self, condition, what, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            value = condition()
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"waited {timeout} s for {what}")

    def fresh_page(self):
        """The set-up screen of a browser that has no saved game."""
        self.d.get("about:blank")  # no page of the origin left to save a game again
        self.d.execute_cdp_cmd("Storage.clearDataForOrigin", {
            "origin": f"http://127.0.0.1:{self.port}", "storageTypes": "local_storage"})
        self.d.get(f"http://127.0.0.1:{self.port}/")
        self.wait(lambda: self.d.find_elements(By.CSS_SELECTOR, "#scenario option"), "the scenarios")

    def start(self, scenario, mode, orange="rule", blue="rule", think=100):
        self.fresh_page()
        Select(self.d.find_element(By.ID, "scenario")).select_by_value(scenario)
        Select(self.d.find_element(By.ID, "mode")).select_by_value(mode)
        for field, value in [("agent-blue", blue), ("agent-orange", orange), ("think-ms", think)]:
            box = self.d.find_element(By.ID, field)
            box.clear()
            box.send_keys(str(value))

    def begin(self, scenario, mode, **agents):
        self.start(scenario, mode, **agents)
        self.d.find_element(By.ID, "start").click()
        self.idle()

    def load_file(self, path):
        self.d.find_element(By.ID, "load-file").send_keys(os.path.abspath(path))

    def shown(self, element_id):
        return self.d.find_element(By.ID, element_id).is_displayed()

    def text(self, element_id):
        return self.d.find_element(By.ID, element_id).text

    def click_svg(self, css):
        element = self.d.find_element(By.CSS_SELECTOR, css)
        self.js("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element)
        self.idle()

    def click_unit(self, unit):
        self.click_svg(f"#map g.unit[data-unit='{unit}']")

    def click_hex(self, hex_):
        marks = self.d.find_elements(By.CSS_SELECTOR, f"#map g.mark[data-hex='{hex_}']")
        units = self.d.find_elements(By.CSS_SELECTOR, f"#map g.unit[data-hex='{hex_}']")
        target = marks[0] if marks else units[0] if units else \
            self.d.find_element(By.CSS_SELECTOR, f"#map g.hex[data-hex='{hex_}']")
        self.js("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
        self.idle()

    def mouse_click(self, element):
        """A real click of the mouse at the element's centre on the screen (hit-testing included)."""
        ActionChains(self.d).move_to_element(element).click().perform()
        self.idle()

    def key(self, key, wait=True):
        """Presses `key`; with `wait`, until the client is idle again (not while watching)."""
        ActionChains(self.d).send_keys(key).perform()
        if wait:
            self.idle()

    def button(self, element_id):
        self.d.find_element(By.ID, element_id).click()
        self.idle()

    def shot(self, name):
        if self.shots:
            self.d.save_screenshot(os.path.join(self.shots, name))

    def state(self):
        return self.js("return window.morne.state")

    def state_hash(self):
        return self.js("return window.morne.state && window.morne.state.hash")

    def unit_hex(self, unit):
        return next(u["hex"] for u in self.state()["units"] if u["id"] == unit)

    def compare_with_reference(self, name, update=False, tolerance=2.0):
        """The page's screenshot against references/NAME: the mean difference of their grey
        levels at 256 x 192 must stay under `tolerance` (of 255). `update` rewrites it."""
        path = os.path.join(REFERENCES, name)
        shot = os.path.join(self.shots or "/tmp", f"current-{name}")
        self.d.save_screenshot(shot)
        if update or not os.path.exists(path):
            check(update, f"no reference {path}: run the test with --update-references")
            shutil.copyfile(shot, path)
            return 0.0
        small = (256, 192)
        a = Image.open(shot).convert("L").resize(small, Image.BILINEAR)
        b = Image.open(path).convert("L").resize(small, Image.BILINEAR)
        difference = ImageStat.Stat(ImageChops.difference(a, b)).mean[0]
        check(difference <= tolerance, f"the screen differs from {name} by {difference:.1f} grey "
              f"levels on average (at most {tolerance}); see {shot}")
        return difference


def open_position(c, scenario, mode, path):
    """The page playing the saved position (or record) in `path`."""
    c.start(scenario, mode)
    c.load_file(path)
    c.wait(lambda: c.shown("game"), f"the position of {os.path.basename(path)}")
    c.idle()
