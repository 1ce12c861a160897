<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BatchPanel</name>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="101"/>
        <source>Add folder...</source>
        <translation>添加文件夹...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="102"/>
        <source>Add files...</source>
        <translation>添加文件...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="103"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="104"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="105"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="106"/>
        <source>Continue</source>
        <translation>继续处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="107"/>
        <source>Run the files this batch still has queued</source>
        <translation>处理此批次中仍在排队的文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="110"/>
        <source>Batch folder...</source>
        <translation>批次文件夹...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="112"/>
        <location filename="../../scanner_app/gui/batch/panel.py" line="306"/>
        <source>Where new batches keep their results: {0}</source>
        <translation>新批次保存结果的位置：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="114"/>
        <source>Requests in flight:</source>
        <translation>并发请求数：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="134"/>
        <source>No batch yet: add a folder or files.</source>
        <translation>尚无批次：请添加文件夹或文件。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="171"/>
        <source>A batch is running: cancel it before starting another.</source>
        <translation>有批次正在运行：请先取消再开始新的批次。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="175"/>
        <source>Waiting for the server to be ready; the batch starts then.</source>
        <translation>正在等待服务器就绪；就绪后批处理开始。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="183"/>
        <source>Reading the files under {0}...</source>
        <translation>正在读取 {0} 下的文件...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="207"/>
        <source>Paused: the pages in flight finish, no new page is sent.</source>
        <translation>已暂停：正在处理的页面会完成，不再发送新页面。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="219"/>
        <source>Cancelled before it started.</source>
        <translation>已在开始前取消。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="222"/>
        <source>Cancelling: waiting for the pages in flight...</source>
        <translation>正在取消：等待正在处理的页面...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="230"/>
        <source>Nothing to export yet.</source>
        <translation>暂无可导出的内容。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="233"/>
        <source>Exporting to {0}...</source>
        <translation>正在导出到 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="272"/>
        <source>Writing {0}...</source>
        <translation>正在写入 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="285"/>
        <source>Wrote {0}</source>
        <translation>已写入 {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="298"/>
        <source>Choose a folder to read</source>
        <translation>选择要识别的文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="303"/>
        <source>Keep new batches in</source>
        <translation>将新批次保存在</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="310"/>
        <source>Choose files to read</source>
        <translation>选择要识别的文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="326"/>
        <source>Adding files: {0} of {1}...</source>
        <translation>正在添加文件：{0}/{1}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="368"/>
        <source>{0} of {1}, {2} failed; {3}, {4}; {5}</source>
        <translation>{0}/{1}，{2} 个失败；{3}，{4}；{5}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="369"/>
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="369"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 页</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="370"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="406"/>
        <source>Wrote %n file(s): {0}</source>
        <translation>
            <numerusform>已写入 %n 个文件：{0}</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="372"/>
        <source>; {0} skipped</source>
        <translation>；跳过 {0} 个</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="375"/>
        <source>Finished: </source>
        <translation>已完成：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="377"/>
        <source>. Stopped early: {0}</source>
        <translation>。提前停止：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="379"/>
        <source>. Server unavailable, retrying in {0:.0f} s (waiting {1:.0f} s): {2}</source>
        <translation>。服务器不可用，{0:.0f} 秒后重试（已等待 {1:.0f} 秒）：{2}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="382"/>
        <source>. Paused.</source>
        <translation>。已暂停。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/panel.py" line="400"/>
        <source>Export failed: {0}</source>
        <translation>导出失败：{0}</translation>
    </message>
</context>
<context>
    <name>BatchTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="38"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="38"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="38"/>
        <source>Vendor</source>
        <translation>商家</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="38"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="39"/>
        <source>Total</source>
        <translation>总额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="39"/>
        <source>To check</source>
        <translation>待核对</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="39"/>
        <source>Receipts</source>
        <translation>票据数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="39"/>
        <source>Checked</source>
        <translation>已核对</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="40"/>
        <source>Pages</source>
        <translation>页数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="40"/>
        <source>Lines</source>
        <translation>行数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="40"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="41"/>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="41"/>
        <source>running</source>
        <translation>处理中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="42"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="42"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="87"/>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="104"/>
        <source>{0} receipts: {1}</source>
        <translation>{0} 张票据：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/table_model.py" line="124"/>
        <source>Receipt {0}: {1}, {2}, {3}</source>
        <translation>票据 {0}：{1}，{2}，{3}</translation>
    </message>
</context>
<context>
    <name>CameraDialog</name>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="70"/>
        <source>Capture from camera</source>
        <translation>从摄像头拍摄</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="88"/>
        <source>Video file...</source>
        <translation>视频文件...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="93"/>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="96"/>
        <source>Choose a camera or a video file</source>
        <translation>选择摄像头或视频文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="97"/>
        <source>Press the shutter (Space) to take a picture</source>
        <translation>按快门（空格键）拍照</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="99"/>
        <source>Rotate left</source>
        <translation>向左旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="100"/>
        <source>Rotate right</source>
        <translation>向右旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="113"/>
        <source>Auto-flatten the document</source>
        <translation>自动校正文档</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="116"/>
        <source>Take picture (Space)</source>
        <translation>拍照（空格）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="123"/>
        <source>Use picture</source>
        <translation>使用照片</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="146"/>
        <source>Video: {name}</source>
        <translation>视频：{name}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="148"/>
        <source>Camera {index}</source>
        <translation>摄像头 {index}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="167"/>
        <source>Videos ({patterns});;All files (*)</source>
        <translation>视频 ({patterns});;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="168"/>
        <source>Open a video file</source>
        <translation>打开视频文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="191"/>
        <source>No camera found. Choose a video file instead.</source>
        <translation>未找到摄像头。请改为选择视频文件。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="204"/>
        <source>Opening {source}...</source>
        <translation>正在打开 {source}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="232"/>
        <source>{source}: {details}</source>
        <translation>{source}：{details}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="250"/>
        <source>No picture yet: choose a camera or a video file.</source>
        <translation>尚无照片：请选择摄像头或视频文件。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="260"/>
        <source>The picture could not be processed: {error}</source>
        <translation>无法处理照片：{error}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="267"/>
        <source>Document found and flattened ({width} x {height}).</source>
        <translation>已找到文档并校正（{width} × {height}）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="269"/>
        <source>No document edges found: the whole frame was kept ({width} x {height}).</source>
        <translation>未找到文档边缘：保留整个画面（{width} × {height}）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="271"/>
        <source>Picture taken ({width} x {height}).</source>
        <translation>已拍照（{width} × {height}）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="291"/>
        <source>Which way is up is unknown ({error}): use the rotate buttons.</source>
        <translation>无法判断哪一边朝上（{error}）：请使用旋转按钮。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="299"/>
        <source>Turned upright as the server reads it ({degrees} degrees).</source>
        <translation>已按服务器的识别结果转正（{degrees} 度）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/dialog.py" line="340"/>
        <source>The picture could not be saved: {error}</source>
        <translation>无法保存照片：{error}</translation>
    </message>
</context>
<context>
    <name>ChartFeed</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/feed.py" line="40"/>
        <source>images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/feed.py" line="65"/>
        <source>{0} queue</source>
        <translation>{0} 排队</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/feed.py" line="75"/>
        <location filename="../../scanner_app/gui/dashboard/feed.py" line="78"/>
        <source>{0} {1} %</source>
        <translation>{0} {1} %</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="29"/>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="31"/>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="34"/>
        <source>empty file (0 bytes)</source>
        <translation>空文件（0 字节）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="36"/>
        <source>not found</source>
        <translation>找不到</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="39"/>
        <source>too large: {0} MiB is over the limit of {1} MiB for an image</source>
        <translation>太大：{0} MiB，超过图像的上限 {1} MiB</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="45"/>
        <source>too large: {0} MiB is over the limit of {1} MiB for a PDF</source>
        <translation>太大：{0} MiB，超过 PDF 的上限 {1} MiB</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="51"/>
        <source>not an image or PDF (the content looks like text)</source>
        <translation>不是图像或 PDF（内容看起来是文本）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="57"/>
        <source>not an image or PDF (the content looks like a ZIP archive or Office document)</source>
        <translation>不是图像或 PDF（内容看起来是 ZIP 压缩包或 Office 文档）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="63"/>
        <source>not an image or PDF (unrecognised content, starts with {0})</source>
        <translation>不是图像或 PDF（无法识别的内容，开头为 {0}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="69"/>
        <source>HEIC/HEIF/AVIF photos are not supported (export it as JPEG)</source>
        <translation>不支持 HEIC/HEIF/AVIF 照片（请导出为 JPEG）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="75"/>
        <source>corrupt or truncated {0} file (its header cannot be read)</source>
        <translation>{0} 文件已损坏或不完整（无法读取文件头）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="81"/>
        <source>corrupt image header ({0})</source>
        <translation>图像文件头已损坏（{0}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="85"/>
        <source>corrupt TIFF page list ({0})</source>
        <translation>TIFF 页面列表已损坏（{0}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="89"/>
        <source>corrupt or truncated image data ({0})</source>
        <translation>图像数据已损坏或不完整（{0}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="95"/>
        <source>colour mode {0} is not supported</source>
        <translation>不支持颜色模式 {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="99"/>
        <source>{0} pages is over the limit of {1} pages a file</source>
        <translation>{0} 页，超过每个文件 {1} 页的上限</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="105"/>
        <source>corrupt or truncated PDF</source>
        <translation>PDF 已损坏或不完整</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="109"/>
        <source>password-protected PDF (save a copy without the password and retry)</source>
        <translation>PDF 受密码保护（请另存一份无密码的副本后重试）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="115"/>
        <source>PDF uses an encryption scheme that is not supported</source>
        <translation>PDF 使用了不支持的加密方式</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="121"/>
        <source>PDF page tree is damaged</source>
        <translation>PDF 页面树已损坏</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="123"/>
        <source>PDF has no pages</source>
        <translation>PDF 没有页面</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="126"/>
        <source>cannot be opened (missing or not readable)</source>
        <translation>无法打开（不存在或不可读）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="130"/>
        <source>cannot be read ({0})</source>
        <translation>无法读取（{0}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="134"/>
        <source>not well-formed XML ({0})</source>
        <translation>XML 格式不正确（{0}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="138"/>
        <source>page {0} of {1}: </source>
        <translation>第 {0} 页（共 {1} 页）：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="143"/>
        <source>server {0} is unavailable ({1})</source>
        <translation>服务器 {0} 不可用（{1}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="149"/>
        <source>server {0} did not answer in time ({1})</source>
        <translation>服务器 {0} 未及时响应（{1}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="155"/>
        <source>server {0} has no ready {1} (loading or stopping)</source>
        <translation>服务器 {0} 上的 {1} 尚未就绪（正在加载或停止）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="161"/>
        <source>server {0} is up but not ready (a model is loading or failed)</source>
        <translation>服务器 {0} 已启动但未就绪（模型正在加载或加载失败）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="167"/>
        <source>server {0} failed: {1}</source>
        <translation>服务器 {0} 处理失败：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="176"/>
        <source>connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="177"/>
        <source>no answer before the deadline</source>
        <translation>在时限内没有响应</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="178"/>
        <source>the host name cannot be resolved</source>
        <translation>无法解析主机名</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="179"/>
        <source>the connection was reset</source>
        <translation>连接被重置</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="180"/>
        <source>the connection was closed</source>
        <translation>连接已关闭</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="181"/>
        <source>the network is unreachable</source>
        <translation>网络不可达</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="182"/>
        <source>no route to the host</source>
        <translation>没有到主机的路由</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="205"/>
        <source> (after {0} attempts)</source>
        <translation>（尝试 {0} 次后）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="238"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="239"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="240"/>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="241"/>
        <source>down</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="242"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="254"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="255"/>
        <source>Vendor</source>
        <translation>商家</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="256"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="257"/>
        <source>Number</source>
        <translation>号码</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="258"/>
        <source>Net</source>
        <translation>不含税金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="259"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="260"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="261"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/i18n/core_text.py" line="262"/>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
</context>
<context>
    <name>DashboardCharts</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="341"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="341"/>
        <source>images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="342"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="342"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="343"/>
        <source>Average executed batch per model</source>
        <translation>各模型的平均执行批大小</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="343"/>
        <source>requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="345"/>
        <source>Compute (solid) vs queue (dashed) per model</source>
        <translation>各模型的计算（实线）与排队（虚线）时间</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="345"/>
        <source>ms per request</source>
        <translation>每请求毫秒数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="347"/>
        <source>CPU per server process</source>
        <translation>各服务器进程的 CPU</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="347"/>
        <source>% of all cores</source>
        <translation>占全部核心的 %</translation>
    </message>
</context>
<context>
    <name>DemoPanel</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="39"/>
        <source>Demo: baseline vs Triton</source>
        <translation>演示：基线与 Triton 对比</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="41"/>
        <source>Starts the serial baseline server, measures it, then Triton on the same images at the same concurrency, and shows the speed-up.</source>
        <translation>启动串行基线服务器并测量，然后以相同图片和相同并发测量 Triton，显示加速比。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="46"/>
        <source>c=</source>
        <translation>并发=</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="50"/>
        <source> s each</source>
        <translation> 秒/级</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="57"/>
        <source>Press the button to compare the baseline with Triton.</source>
        <translation>按下按钮，比较基线与 Triton。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="60"/>
        <source>Presentation mode</source>
        <translation>演示模式</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="62"/>
        <source>Both phases side by side in large type, one click to the result</source>
        <translation>两个阶段并排、大字显示，一键得到结果</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="106"/>
        <source>Measuring the baseline, then Triton...</source>
        <translation>正在测量基线，然后是 Triton...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="124"/>
        <source>Baseline: {0} at c={1}. Now Triton...</source>
        <translation>基线：{0}，并发 c={1}。现在测 Triton...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="133"/>
        <source>Same images, concurrency {0}: Triton {1} (p50 {2:.0f} ms) vs baseline {3} (p50 {4:.0f} ms)</source>
        <translation>相同图像，并发 {0}：Triton {1}（p50 {2:.0f} 毫秒）对比基线 {3}（p50 {4:.0f} 毫秒）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="166"/>
        <source>95 % interval {0}{1} ({2}).</source>
        <translation>95 % 区间 {0}{1}（{2}）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="146"/>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="146"/>
        <source>The baseline completed no request; no ratio to show.</source>
        <translation>基线没有完成任何请求，无法显示比率。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="148"/>
        <source>{0} Triton vs {1} baseline responses, {2} vs {3} measured windows</source>
        <translation>Triton {0} 个与基线 {1} 个响应，测量窗口 {2} 对 {3}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="154"/>
        <source>Too short to call</source>
        <translation>时间太短，无法下结论</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="154"/>
        <source>Measured {0:.2f}x from {1}; calling a speed-up needs at least {2} responses and {3} windows on each side. Run longer (duration) or on more images.</source>
        <translation>测得 {0:.2f} 倍（{1}）；判定加速需要每一侧至少 {2} 个响应和 {3} 个窗口。请延长时长或使用更多图像。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="160"/>
        <source>No clear difference</source>
        <translation>没有明显差异</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="160"/>
        <source>{0:.2f}x, but the 95 % interval {1} includes 1.0 ({2}). Run longer to tell them apart.</source>
        <translation>{0:.2f} 倍，但 95 % 区间 {1} 包含 1.0（{2}）。请运行更久以区分两者。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="164"/>
        <source>Triton {0:.1f}x</source>
        <translation>Triton {0:.1f} 倍</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/demo.py" line="165"/>
        <source> (slower here)</source>
        <translation>（此处更慢）</translation>
    </message>
</context>
<context>
    <name>DocumentController</name>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="94"/>
        <location filename="../../scanner_app/gui/document/controller.py" line="103"/>
        <location filename="../../scanner_app/gui/document/controller.py" line="135"/>
        <source>Opening {0}...</source>
        <translation>正在打开 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="149"/>
        <source>Nothing to export: no recognised document is open</source>
        <translation>无可导出内容：没有打开已识别的文档</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="151"/>
        <source>Exporting {0}...</source>
        <translation>正在导出 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="156"/>
        <source>Export of {0} failed: {1}</source>
        <translation>导出 {0} 失败：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="179"/>
        <source>{0}: waiting for the server ({1})</source>
        <translation>{0}：正在等待服务器（{1}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="183"/>
        <source>Cannot recognise {0}: no server is ready ({1}); see the Server tab</source>
        <translation>无法识别 {0}：没有就绪的服务器（{1}）；请查看“服务器”标签页</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="187"/>
        <source>Recognising {0}...</source>
        <translation>正在识别 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="204"/>
        <source>{0}: {1} lines (stored result)</source>
        <translation>{0}：{1} 行（已保存的结果）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/document/controller.py" line="214"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="216"/>
        <source>{0}: {1} read from the document&apos;s own text, not OCR</source>
        <translation>{0}：从文档本身的文字读取了 {1}，不是 OCR 识别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/controller.py" line="219"/>
        <source>{0}: {1} in {2:.0f} ms</source>
        <translation>{0}：{1}，用时 {2:.0f} 毫秒</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/document/controller.py" line="225"/>
        <source>Exported %n file(s) to {0}</source>
        <translation>
            <numerusform>已导出 %n 个文件到 {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DocumentOutlines</name>
    <message>
        <location filename="../../scanner_app/gui/viewer/document_outlines.py" line="47"/>
        <source>Note in another ink (not the document&apos;s text): {0}</source>
        <translation>另一种墨迹的手写批注（不属于单据正文）：{0}</translation>
    </message>
</context>
<context>
    <name>DuplicatePanel</name>
    <message>
        <location filename="../../scanner_app/gui/library/duplicate_panel.py" line="47"/>
        <source>Same receipt</source>
        <translation>同一张收据</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/duplicate_panel.py" line="49"/>
        <source>Confirm: the later one is marked a duplicate (exports leave it out)</source>
        <translation>确认：较晚的一张标记为重复（导出时不包含）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/duplicate_panel.py" line="52"/>
        <source>Not a duplicate</source>
        <translation>不是重复</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/duplicate_panel.py" line="53"/>
        <source>Dismiss: this pair is never flagged again</source>
        <translation>忽略：这一对不再被标记</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/duplicate_panel.py" line="72"/>
        <source>#{0} may be the same receipt as #{1} ({2})</source>
        <translation>#{0} 可能与 #{1} 是同一张收据（{2}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/duplicate_panel.py" line="98"/>
        <source>(no picture)</source>
        <translation>（无图片）</translation>
    </message>
</context>
<context>
    <name>EditBar</name>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="29"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="31"/>
        <source>Add tag...</source>
        <translation>添加标签...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="32"/>
        <source>Add tags</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="33"/>
        <source>Remove tag...</source>
        <translation>移除标签...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="34"/>
        <source>Remove tags</source>
        <translation>移除标签</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="35"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="54"/>
        <source>%n selected:</source>
        <translation>
            <numerusform>已选 %n 张：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="67"/>
        <source>No category</source>
        <translation>无类别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="81"/>
        <source>Tags, separated by commas:</source>
        <translation>标签，用逗号分隔：</translation>
    </message>
</context>
<context>
    <name>EditHistory</name>
    <message>
        <location filename="../../scanner_app/gui/document/edit_history.py" line="28"/>
        <source>edit of line {0}</source>
        <translation>第 {0} 行的修改</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/edit_history.py" line="34"/>
        <source>edit of {0}</source>
        <translation>“{0}”的修改</translation>
    </message>
</context>
<context>
    <name>ExportBar</name>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="36"/>
        <source>Export as:</source>
        <translation>导出格式：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="45"/>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="46"/>
        <source>Write the batch&apos;s results into a folder you choose</source>
        <translation>将批次结果写入所选文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="49"/>
        <source>Reimbursement sheet...</source>
        <translation>报销单...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="50"/>
        <source>The whole batch in one sheet: a row per receipt, edits in</source>
        <translation>整批一张表：每张票据一行，含手工修改</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="69"/>
        <source>Choose at least one format.</source>
        <translation>请至少选择一种格式。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="72"/>
        <source>Export the batch into</source>
        <translation>将批次导出到</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="79"/>
        <source>Excel workbook (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel 工作簿 (*.xlsx);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/export_bar.py" line="80"/>
        <source>Reimbursement sheet</source>
        <translation>报销单</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="44"/>
        <source>Export receipts</source>
        <translation>导出收据</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="47"/>
        <source>Xero bills (CSV)</source>
        <translation>Xero 账单（CSV）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="47"/>
        <source>QuickBooks Online bank (CSV)</source>
        <translation>QuickBooks Online 银行流水（CSV）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="48"/>
        <source>DATEV Buchungsstapel (CSV)</source>
        <translation>DATEV 记账批次（CSV）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="48"/>
        <source>Every field (CSV)</source>
        <translation>全部字段（CSV）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="49"/>
        <source>Every field (XLSX)</source>
        <translation>全部字段（XLSX）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="49"/>
        <source>Expense report (PDF)</source>
        <translation>费用报告（PDF）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="53"/>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="54"/>
        <source>The %n receipt(s) found</source>
        <translation>
            <numerusform>找到的 %n 张收据</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="55"/>
        <source>The %n receipt(s) selected</source>
        <translation>
            <numerusform>选中的 %n 张收据</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="58"/>
        <source>Receipts:</source>
        <translation>收据：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="60"/>
        <source>Include receipts exported before</source>
        <translation>包括以前导出过的收据</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="63"/>
        <source>e.g. EUR</source>
        <translation>例如 EUR</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="65"/>
        <source>Currency when a receipt names none:</source>
        <translation>收据未写币种时使用：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="67"/>
        <source>Choose...</source>
        <translation>选择...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="72"/>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="96"/>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
</context>
<context>
    <name>FieldsPanel</name>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="105"/>
        <source>Export sheet...</source>
        <translation>导出报销单...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="106"/>
        <source>Write a reimbursement sheet (CSV or XLSX) with these fields</source>
        <translation>用这些字段生成报销单（CSV 或 XLSX）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="121"/>
        <source>Receipt {0} of {1}</source>
        <translation>第 {0} 张收据，共 {1} 张</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="154"/>
        <source>Fields could not be read: {0}</source>
        <translation>无法读取字段：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="171"/>
        <source>No page</source>
        <translation>没有页面</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="174"/>
        <source>{0}, {1} to check</source>
        <translation>{0}，{1} 项待检查</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/fields/panel.py" line="174"/>
        <source>%n field(s)</source>
        <translation>
            <numerusform>%n 个字段</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="215"/>
        <source>Export reimbursement sheet</source>
        <translation>导出报销单</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="216"/>
        <source>CSV (*.csv);;Excel workbook (*.xlsx)</source>
        <translation>CSV (*.csv);;Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/panel.py" line="237"/>
        <source>Could not write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
</context>
<context>
    <name>FieldsTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="50"/>
        <source>Vendor</source>
        <translation>商家</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="50"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="50"/>
        <source>Number</source>
        <translation>号码</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="51"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="51"/>
        <source>Net</source>
        <translation>不含税金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="51"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="52"/>
        <source>Tax rate</source>
        <translation>税率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="53"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="53"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="53"/>
        <source>Rounding</source>
        <translation>舍入</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="54"/>
        <source>Invoice code</source>
        <translation>发票代码</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="54"/>
        <source>Total in words</source>
        <translation>大写金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="55"/>
        <source>Buyer</source>
        <translation>购买方</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="55"/>
        <source>Buyer tax ID</source>
        <translation>购买方税号</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="56"/>
        <source>Seller</source>
        <translation>销售方</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="56"/>
        <source>Seller tax ID</source>
        <translation>销售方税号</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="87"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="87"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="87"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="87"/>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/model.py" line="109"/>
        <source>Read from: {0}</source>
        <translation>读取自：{0}</translation>
    </message>
</context>
<context>
    <name>FilterRow</name>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="30"/>
        <source>Vendor</source>
        <translation>商家</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="30"/>
        <source>From YYYY-MM-DD</source>
        <translation>起始 YYYY-MM-DD</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="31"/>
        <source>To YYYY-MM-DD</source>
        <translation>截止 YYYY-MM-DD</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="31"/>
        <source>Total from</source>
        <translation>合计最低</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="32"/>
        <source>Total to</source>
        <translation>合计最高</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="32"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="32"/>
        <source>Tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="43"/>
        <source>Any category</source>
        <translation>任意类别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="44"/>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="45"/>
        <source>Any way in</source>
        <translation>任意来源</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="46"/>
        <source>Duplicates to decide</source>
        <translation>待判定的重复</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/filter_row.py" line="48"/>
        <source>Filters:</source>
        <translation>筛选：</translation>
    </message>
</context>
<context>
    <name>FlagText</name>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="13"/>
        <source>required, but not found</source>
        <translation>必填，但未找到</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="14"/>
        <source>low confidence</source>
        <translation>置信度低</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="15"/>
        <source>net + tax does not equal the total</source>
        <translation>净额 + 税额不等于总额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="16"/>
        <source>not a date</source>
        <translation>不是日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="17"/>
        <source>the tax rate does not match net and tax</source>
        <translation>税率与净额和税额不符</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="18"/>
        <source>the amount in words does not match the total</source>
        <translation>大写金额与总额不符</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="19"/>
        <source>the items&apos; tax does not add up to the tax</source>
        <translation>各项税额之和不等于税额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="20"/>
        <source>the items do not add up to the net amount</source>
        <translation>各项金额之和不等于净额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="25"/>
        <source>item {0}: quantity x price does not equal the amount</source>
        <translation>第 {0} 项：数量 × 单价不等于金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="28"/>
        <source>item {0}: the tax does not match the rate</source>
        <translation>第 {0} 项：税额与税率不符</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="31"/>
        <source>not a valid taxpayer number</source>
        <translation>不是有效的纳税人识别号</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="33"/>
        <source>not an amount</source>
        <translation>不是金额</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="35"/>
        <source>corrected from the QR code</source>
        <translation>已按二维码更正</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/fields/flag_text.py" line="37"/>
        <source>the items do not add up</source>
        <translation>各项之和不符</translation>
    </message>
</context>
<context>
    <name>FrameGrabber</name>
    <message>
        <location filename="../../scanner_app/gui/camera/source.py" line="122"/>
        <source>video file {path}</source>
        <translation>视频文件 {path}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/source.py" line="123"/>
        <source>camera {index}</source>
        <translation>摄像头 {index}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/source.py" line="129"/>
        <source>{path}: no such file</source>
        <translation>{path}：文件不存在</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/source.py" line="132"/>
        <source>not a video OpenCV can read (unknown container or codec)</source>
        <translation>不是 OpenCV 能读取的视频（未知的容器或编码）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/source.py" line="135"/>
        <source>it is missing, busy in another program, or access was refused</source>
        <translation>设备不存在、被其他程序占用，或访问被拒绝</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/source.py" line="138"/>
        <source>Cannot open {source}: {cause}</source>
        <translation>无法打开 {source}：{cause}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/camera/source.py" line="170"/>
        <source>{source} delivered no frame</source>
        <translation>{source} 没有输出画面</translation>
    </message>
</context>
<context>
    <name>HistoryActions</name>
    <message>
        <location filename="../../scanner_app/gui/document/edit_history.py" line="91"/>
        <source>&amp;Undo {0}</source>
        <translation>撤销{0}(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/edit_history.py" line="91"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/edit_history.py" line="92"/>
        <source>&amp;Redo {0}</source>
        <translation>重做{0}(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/document/edit_history.py" line="92"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
</context>
<context>
    <name>IssuesPanel</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="41"/>
        <source>Errors by cause</source>
        <translation>按原因分类的错误</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="43"/>
        <source>Where the time goes</source>
        <translation>时间花在哪里</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="71"/>
        <source>{0}: no request completed in the {1:.1f} s measured; make the duration longer than one request takes, or lower the concurrency.</source>
        <translation>{0}：在测量的 {1:.1f} 秒内没有请求完成；请把时长设得比单个请求更长，或降低并发。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="94"/>
        <source>{0} responses differed from the golden results · {1} requests failed</source>
        <translation>{0} 个响应与基准结果不同 · {1} 个请求失败</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="98"/>
        <source>No golden-check mismatches, no errors</source>
        <translation>基准校验无差异，无错误</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="104"/>
        <source>{0} x {1}</source>
        <translation>{0} × {1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="106"/>
        <source>... and {0} more causes</source>
        <translation>...以及另外 {0} 种原因</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="111"/>
        <source>{0}: requests wait {1:.0f} ms in its queue for {2:.0f} ms of compute - this step is the bottleneck (give it more instances, or send fewer requests at once).</source>
        <translation>{0}：请求在队列中等待 {1:.0f} 毫秒，计算仅需 {2:.0f} 毫秒——此步骤是瓶颈（增加实例数，或减少同时发送的请求）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="116"/>
        <source>{0}: {1:.2f} items per execution, sent together by its caller (dynamic batching is off).</source>
        <translation>{0}：每次执行 {1:.2f} 项，由调用方一起发送（动态批处理已关闭）。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/issues_panel.py" line="119"/>
        <source>{0}: the dynamic batcher merged {1:.2f} requests per execution on average. On a CPU a batch costs about as much per item as single requests, so batching adds waiting, not speed (compare a run with it off); on a GPU it pays.</source>
        <translation>{0}：动态批处理平均每次执行合并 {1:.2f} 个请求。在 CPU 上，批处理中每项的开销与单个请求相当，因此批处理只会增加等待而不会提速（可与关闭时的运行对比）；在 GPU 上则有收益。</translation>
    </message>
</context>
<context>
    <name>LibraryHub</name>
    <message>
        <location filename="../../scanner_app/gui/library/hub.py" line="146"/>
        <source>The library {0} cannot be opened: {1}</source>
        <translation>无法打开收据库 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/hub.py" line="155"/>
        <source>Not added to the library: {0}</source>
        <translation>未加入收据库：{0}</translation>
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="86"/>
        <source>Library file...</source>
        <translation>收据库文件...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="90"/>
        <source>Open in viewer</source>
        <translation>在查看器中打开</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="92"/>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="121"/>
        <source>Opening the library...</source>
        <translation>正在打开收据库...</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="167"/>
        <source>Changing %n receipt(s)...</source>
        <translation>
            <numerusform>正在修改 %n 张收据...</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="195"/>
        <source>Exporting to {0}...</source>
        <translation>正在导出到 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="256"/>
        <source>Not searched: {0}</source>
        <translation>未搜索：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="258"/>
        <source>The search failed: {0}</source>
        <translation>搜索失败：{0}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="275"/>
        <source>%n receipt(s) found of {0} in the library</source>
        <translation>
            <numerusform>在收据库的 {0} 张中找到 %n 张</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="278"/>
        <source>the first {0} shown</source>
        <translation>只显示前 {0} 张</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="280"/>
        <source>%n possible duplicate(s) to decide</source>
        <translation>
            <numerusform>%n 张可能重复，待判定</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="323"/>
        <source>%n left out ({0})</source>
        <translation>
            <numerusform>%n 张未导出（{0}）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="325"/>
        <source>%n exported before, not again</source>
        <translation>
            <numerusform>%n 张以前已导出，未再导出</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="296"/>
        <source>The edit failed: {0}</source>
        <translation>修改失败：{0}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="298"/>
        <source>Changed %n receipt(s)</source>
        <translation>
            <numerusform>已修改 %n 张收据</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="307"/>
        <source>Not decided: {0}</source>
        <translation>未能判定：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="315"/>
        <source>Export failed: {0}</source>
        <translation>导出失败：{0}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="320"/>
        <source>Wrote %n receipt(s) to {0}</source>
        <translation>
            <numerusform>已将 %n 张收据写入 {0}</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="346"/>
        <source>Library file (a new name starts a new library)</source>
        <translation>收据库文件（新文件名即新建收据库）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="347"/>
        <source>Receipt libraries (*.sqlite);;All files (*)</source>
        <translation>收据库 (*.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="351"/>
        <source>Opening the library {0}...</source>
        <translation>正在打开收据库 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/panel.py" line="356"/>
        <source>Library: {0}</source>
        <translation>收据库：{0}</translation>
    </message>
</context>
<context>
    <name>LibraryTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="40"/>
        <source>Receipt</source>
        <translation>收据</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="40"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="40"/>
        <source>Vendor</source>
        <translation>商家</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="40"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="41"/>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="41"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="41"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="41"/>
        <source>Way in</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="42"/>
        <source>Source</source>
        <translation>源文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="42"/>
        <source>Duplicate of</source>
        <translation>重复于</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="43"/>
        <source>new</source>
        <translation>新</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="43"/>
        <source>to check</source>
        <translation>待检查</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="44"/>
        <source>checked</source>
        <translation>已核对</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="44"/>
        <source>exported</source>
        <translation>已导出</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="45"/>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="47"/>
        <source>viewer</source>
        <translation>查看器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="47"/>
        <source>camera</source>
        <translation>摄像头</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="47"/>
        <source>clipboard</source>
        <translation>剪贴板</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="48"/>
        <source>batch</source>
        <translation>批处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="48"/>
        <source>scanner</source>
        <translation>扫描仪</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="48"/>
        <source>scan command</source>
        <translation>scan 命令</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="49"/>
        <source>watched folder</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="49"/>
        <source>device command</source>
        <translation>device 命令</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="50"/>
        <source>imported batch</source>
        <translation>导入的批处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="52"/>
        <source>same file</source>
        <translation>相同文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="52"/>
        <source>same image</source>
        <translation>相同图像</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="53"/>
        <source>same fields</source>
        <translation>相同字段</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="53"/>
        <source>by hand</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="117"/>
        <source>{0}, page {1}</source>
        <translation>{0}，第 {1} 页</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="123"/>
        <source>#{0} ({1})</source>
        <translation>#{0}（{1}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="131"/>
        <source>Possibly the same receipt as #{0} ({1}): {2}</source>
        <translation>可能与 #{0}（{1}）是同一张收据：{2}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="135"/>
        <source>Tags: {0}</source>
        <translation>标签：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/table_model.py" line="139"/>
        <source>Exported in: {0}</source>
        <translation>已导出于：{0}</translation>
    </message>
</context>
<context>
    <name>MainActions</name>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="67"/>
        <source>&amp;Open...</source>
        <translation>打开(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="68"/>
        <source>Open &amp;folder as batch...</source>
        <translation>打开文件夹作为批次(&amp;F)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="69"/>
        <source>&amp;Paste image</source>
        <translation>粘贴图片(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="70"/>
        <source>Capture from &amp;camera...</source>
        <translation>从摄像头拍摄(&amp;C)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="71"/>
        <source>Capture &amp;screen region</source>
        <translation>截取屏幕区域(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="72"/>
        <source>Sc&amp;an...</source>
        <translation>扫描(&amp;A)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="73"/>
        <source>&amp;Export...</source>
        <translation>导出(&amp;E)...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="74"/>
        <source>&amp;Recognise again</source>
        <translation>重新识别(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="75"/>
        <source>Always &amp;OCR PDF pages</source>
        <translation>始终对 PDF 页面做 &amp;OCR</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="76"/>
        <source>Pre&amp;vious page</source>
        <translation>上一页(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="77"/>
        <source>&amp;Next page</source>
        <translation>下一页(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="78"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="79"/>
        <source>&amp;Copy selected lines</source>
        <translation>复制所选行(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="80"/>
        <source>Next field to chec&amp;k</source>
        <translation>下一个待核对字段(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="81"/>
        <source>Previous field to check</source>
        <translation>上一个待核对字段</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="82"/>
        <source>&amp;Mark receipt as checked</source>
        <translation>标记票据为已核对(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="83"/>
        <source>&amp;Document</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="84"/>
        <source>&amp;Batch</source>
        <translation>批处理(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="85"/>
        <source>&amp;Server</source>
        <translation>服务器(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="86"/>
        <source>S&amp;tress</source>
        <translation>压力测试(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="87"/>
        <source>&amp;Fields</source>
        <translation>字段(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="88"/>
        <source>&amp;Library</source>
        <translation>收据库(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="89"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="90"/>
        <source>&amp;About scanner-app</source>
        <translation>关于 scanner-app(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="101"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="103"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="107"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="117"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="126"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/actions.py" line="129"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="162"/>
        <source>scanner-app - receipt and invoice OCR</source>
        <translation>scanner-app - 收据与发票文字识别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="174"/>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="175"/>
        <source>Batch</source>
        <translation>批处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="176"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="177"/>
        <source>Stress</source>
        <translation>压力测试</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="179"/>
        <source>Lines</source>
        <translation>文本行</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="180"/>
        <source>Fields</source>
        <translation>字段</translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/window/main_window.py" line="302"/>
        <source>Copied %n line(s)</source>
        <translation>
            <numerusform>已复制 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/window/main_window.py" line="307"/>
        <source>Copied all %n line(s)</source>
        <translation>
            <numerusform>已复制全部 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="222"/>
        <source>Open images or PDFs</source>
        <translation>打开图片或 PDF</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="173"/>
        <source>No recent files</source>
        <translation>没有最近的文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="175"/>
        <source>Library</source>
        <translation>收据库</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="223"/>
        <source>Images and PDFs ({0});;All files (*)</source>
        <translation>图片和 PDF ({0});;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="228"/>
        <source>Open a folder as a batch</source>
        <translation>打开文件夹作为批次</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="242"/>
        <source>The clipboard holds no image</source>
        <translation>剪贴板中没有图片</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="248"/>
        <source>Camera capture is not available</source>
        <translation>摄像头拍摄不可用</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="265"/>
        <source>Screen capture is not available</source>
        <translation>屏幕截取不可用</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="274"/>
        <source>Export the document into</source>
        <translation>将文档导出到</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="331"/>
        <source>No translation for {0} is installed</source>
        <translation>未安装 {0} 的翻译</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="341"/>
        <source>About scanner-app</source>
        <translation>关于 scanner-app</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/main_window.py" line="342"/>
        <source>scanner-app {0}
Receipt and invoice OCR with a PP-OCR pipeline on NVIDIA Triton.</source>
        <translation>scanner-app {0}
基于 NVIDIA Triton 上 PP-OCR 流水线的收据与发票文字识别。</translation>
    </message>
</context>
<context>
    <name>ModelControlBox</name>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="64"/>
        <source>Why this configuration, and live A/B (embedded demo server)</source>
        <translation>为何如此配置，以及现场 A/B 对比（内置演示服务器）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="69"/>
        <source>On the embedded CPU server, the ONNX models run in the python backend with dynamic batching off, on purpose. The tritonserver in the nvidia-pytriton wheel has only the Python backend, so ONNX Runtime runs inside it (steps/onnx_runner.py). On a CPU, batching never helped detection: two one-thread sessions per model measured 1.05 images/s against 0.92 for one two-thread session, and recognition already receives up to 16 crops per call. The production config.pbtxt (NGC container, GPU) uses the onnxruntime backend with dynamic batching. Measurements: {0}; re-measure with: {1}</source>
        <translation>在内置 CPU 服务器上，ONNX 模型运行在 python 后端且关闭动态批处理，这是有意为之。nvidia-pytriton 包中的 tritonserver 只带 Python 后端，因此 ONNX Runtime 在其中运行（steps/onnx_runner.py）。在 CPU 上批处理从未加快检测：每个模型两个单线程会话实测 1.05 张/秒，一个双线程会话为 0.92 张/秒；识别模型每次调用已收到最多 16 个裁剪。生产配置 config.pbtxt（NGC 容器，GPU）使用 onnxruntime 后端并开启动态批处理。测量结果：{0}；重新测量：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="83"/>
        <source>Dynamic batching</source>
        <translation>动态批处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="87"/>
        <source>instances: </source>
        <translation>实例数：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="88"/>
        <source>Apply to the running server</source>
        <translation>应用到运行中的服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="90"/>
        <source>Reloads the model with this config through Triton&apos;s model control (loopback demo server only); the next run in the Stress tab records it.</source>
        <translation>通过 Triton 的模型控制以此配置重新加载模型（仅限本机回环演示服务器）；压力测试页的下一次运行会记录该配置。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="122"/>
        <source>Switch, apply, then run again in the Stress tab: the runs table shows both configs.</source>
        <translation>切换并应用后，在压力测试页再运行一次：运行列表会并排显示两种配置。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="125"/>
        <source>Live switching works on the embedded server this app started (loopback), never on a LAN or remote server.</source>
        <translation>现场切换仅适用于本应用启动的内置服务器（本机回环），绝不用于局域网或远程服务器。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="149"/>
        <source>Reloading {0} with {1}...</source>
        <translation>正在以 {1} 重新加载 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="162"/>
        <source>no answer</source>
        <translation>无应答</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="163"/>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/model_control_box.py" line="167"/>
        <source>{0} now runs with {1} (read back from the server).</source>
        <translation>{0} 现在以 {1} 运行（已从服务器读回确认）。</translation>
    </message>
</context>
<context>
    <name>ModelFactsModel</name>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="38"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="38"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="38"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="38"/>
        <source>max_batch_size</source>
        <translation>max_batch_size</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="39"/>
        <source>Dynamic batching</source>
        <translation>动态批处理</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="39"/>
        <source>Instance groups</source>
        <translation>实例组</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="78"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="78"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="80"/>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="86"/>
        <source>The embedded tritonserver (nvidia-pytriton wheel) has only the Python backend: ONNX models run through ONNX Runtime inside it.</source>
        <translation>内置的 tritonserver（nvidia-pytriton 包）只有 Python 后端：ONNX 模型在其中通过 ONNX Runtime 运行。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/models_model.py" line="89"/>
        <source>Off on purpose on a CPU: measured slower there (see the note below); switch it live below to see the effect.</source>
        <translation>在 CPU 上有意关闭：实测更慢（见下方说明）；可在下方现场切换以查看效果。</translation>
    </message>
</context>
<context>
    <name>PhasePanel</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="41"/>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="54"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="42"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="42"/>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="67"/>
        <source>images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="60"/>
        <source>warming up</source>
        <translation>预热中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="60"/>
        <source>measuring</source>
        <translation>测量中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="63"/>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="77"/>
        <source>p50 {0:.0f} · p95 {1:.0f} · p99 {2:.0f} ms</source>
        <translation>p50 {0:.0f} · p95 {1:.0f} · p99 {2:.0f} 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="71"/>
        <source>server process CPU {0:.0f} % of all cores</source>
        <translation>服务器进程 CPU 占全部核心的 {0:.0f} %</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="75"/>
        <source>done: {0} responses</source>
        <translation>完成：{0} 个响应</translation>
    </message>
</context>
<context>
    <name>PresentationWindow</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="88"/>
        <source>Baseline vs Triton - presentation</source>
        <translation>基线 vs Triton - 演示</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="90"/>
        <source>Run the demo</source>
        <translation>运行演示</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="95"/>
        <source>Press Run to compare the serial baseline with Triton</source>
        <translation>按“运行演示”比较串行基线与 Triton</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="98"/>
        <source>Serial baseline (one request at a time)</source>
        <translation>串行基线（一次一个请求）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="99"/>
        <source>Triton</source>
        <translation>Triton</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="123"/>
        <source>Same images, concurrency {0}, {1:.0f} s per side</source>
        <translation>相同图像，并发 {0}，每侧 {1:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="131"/>
        <source>Measuring...</source>
        <translation>测量中...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/presentation.py" line="135"/>
        <source>Could not start</source>
        <translation>无法开始</translation>
    </message>
</context>
<context>
    <name>RegionOverlay</name>
    <message>
        <location filename="../../scanner_app/gui/capture/screen.py" line="63"/>
        <source>Drag a rectangle around what to read; Esc cancels</source>
        <translation>拖出矩形框选要识别的内容；按 Esc 取消</translation>
    </message>
</context>
<context>
    <name>ResultsPanel</name>
    <message>
        <location filename="../../scanner_app/gui/lines/panel.py" line="100"/>
        <source>Filter lines</source>
        <translation>筛选行</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/lines/panel.py" line="101"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
</context>
<context>
    <name>ResultsTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/lines/model.py" line="42"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/lines/model.py" line="42"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/lines/model.py" line="42"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/lines/model.py" line="52"/>
        <source>edited</source>
        <translation>已修改</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/lines/model.py" line="56"/>
        <source>Corrected by hand; the server read &quot;{0}&quot; ({1:.3f})</source>
        <translation>已手动更正；服务器识别为“{0}”（{1:.3f}）</translation>
    </message>
</context>
<context>
    <name>ReviewBar</name>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="31"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="32"/>
        <source>Next to check</source>
        <translation>下一个待核对</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="36"/>
        <source>Type the right value, Enter stores it</source>
        <translation>输入正确的值，按 Enter 保存</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="40"/>
        <source>Accept</source>
        <translation>确认</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="41"/>
        <source>The value is right as read (Enter)</source>
        <translation>识别的值正确（Enter）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="42"/>
        <source>Checked</source>
        <translation>已核对</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="44"/>
        <source>Mark the selected receipt as checked (Ctrl+M)</source>
        <translation>将所选票据标记为已核对（Ctrl+M）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="57"/>
        <source>No receipts yet</source>
        <translation>尚无票据</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="59"/>
        <source>Nothing to check</source>
        <translation>没有待核对的内容</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="61"/>
        <source>{0} of {1} to check</source>
        <translation>待核对：第 {0} 项，共 {1} 项</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="95"/>
        <source>{0}, receipt {1}</source>
        <translation>{0}，票据 {1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="99"/>
        <source>(nothing read)</source>
        <translation>（未识别到）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/bar.py" line="100"/>
        <source>{0}: {1} {2}: {3}</source>
        <translation>{0}：{1} {2}：{3}</translation>
    </message>
</context>
<context>
    <name>ReviewSession</name>
    <message>
        <location filename="../../scanner_app/gui/review/session.py" line="63"/>
        <source>acceptance of {0}</source>
        <translation>确认{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/session.py" line="68"/>
        <source>correction of {0}</source>
        <translation>更正{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/session.py" line="92"/>
        <source>Nothing to export yet.</source>
        <translation>尚无可导出的内容。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/session.py" line="97"/>
        <source>Could not write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/session.py" line="135"/>
        <source>The receipts could not be read: {0}</source>
        <translation>无法读取票据：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/review/session.py" line="144"/>
        <source>The review could not be stored: {0}</source>
        <translation>无法保存核对结果：{0}</translation>
    </message>
</context>
<context>
    <name>RollingChart</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/charts.py" line="85"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="48"/>
        <source>Pipeline (ensemble)</source>
        <translation>完整流水线（ensemble）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="48"/>
        <source>Detection model only</source>
        <translation>仅检测模型</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="49"/>
        <source>Recognition model only</source>
        <translation>仅识别模型</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="50"/>
        <source>Baseline (serial Python server)</source>
        <translation>基线（串行 Python 服务器）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="54"/>
        <source>Generated receipts</source>
        <translation>生成的收据</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="57"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="59"/>
        <source>a folder of images or PDFs</source>
        <translation>包含图片或 PDF 的文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="60"/>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="64"/>
        <source>One level (8), a list (1,2,4,8) or a doubling range (1-16)</source>
        <translation>单个级别（8）、列表（1,2,4,8）或倍增范围（1-16）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="65"/>
        <source>Stop after a number of requests</source>
        <translation>达到请求数后停止</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="66"/>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="71"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="68"/>
        <source>Open loop at</source>
        <translation>开环速率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="70"/>
        <source>Poisson arrivals</source>
        <translation>泊松到达</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="72"/>
        <source>Until stable (last 3 windows within ±10 %, at most 10)</source>
        <translation>直到稳定（最近 3 个窗口相差 ±10% 以内，最多 10 个）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="73"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="74"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="89"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="93"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="99"/>
        <source>Concurrency or sweep</source>
        <translation>并发或扫描范围</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="100"/>
        <source>Duration per level</source>
        <translation>每级时长</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="109"/>
        <source>Rate</source>
        <translation>速率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="110"/>
        <source>Warm-up</source>
        <translation>预热</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="124"/>
        <source>Choose a folder of images, or use generated receipts.</source>
        <translation>请选择图片文件夹，或使用生成的收据。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="156"/>
        <source>Images for the stress run</source>
        <translation>压力测试所用图片</translation>
    </message>
</context>
<context>
    <name>RunsTableModel</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="31"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="31"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="31"/>
        <source>Concurrency</source>
        <translation>并发</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="32"/>
        <source>Images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="32"/>
        <source>p50 ms</source>
        <translation>p50 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="32"/>
        <source>p95 ms</source>
        <translation>p95 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="33"/>
        <source>p99 ms</source>
        <translation>p99 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="33"/>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="33"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="34"/>
        <source>Golden mismatches</source>
        <translation>基准不一致</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="34"/>
        <source>Avg batch</source>
        <translation>平均批大小</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="35"/>
        <source>Queue/compute ms</source>
        <translation>排队/计算 毫秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="35"/>
        <source>CPU/GPU %</source>
        <translation>CPU/GPU %</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="36"/>
        <source>Stable</source>
        <translation>稳定</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="108"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="108"/>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>RunsView</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="133"/>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="157"/>
        <source>Select two runs to compare them.</source>
        <translation>选择两次运行进行比较。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="167"/>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/runs_table.py" line="169"/>
        <source>{0} vs {1}: {2} the throughput ({3:.2f} vs {4:.2f} images/s) · p50 {5:.0f} vs {6:.0f} ms · p99 {7:.0f} vs {8:.0f} ms</source>
        <translation>{0} 对比 {1}：吞吐量为 {2}（{3:.2f} 对 {4:.2f} 张/秒）· p50 {5:.0f} 对 {6:.0f} 毫秒 · p99 {7:.0f} 对 {8:.0f} 毫秒</translation>
    </message>
</context>
<context>
    <name>SavedSearches</name>
    <message>
        <location filename="../../scanner_app/gui/library/saved_searches.py" line="65"/>
        <source>Save search...</source>
        <translation>保存搜索...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/saved_searches.py" line="67"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/saved_searches.py" line="68"/>
        <source>Delete the saved search chosen</source>
        <translation>删除所选的已保存搜索</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/saved_searches.py" line="80"/>
        <source>Saved searches</source>
        <translation>已保存的搜索</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/saved_searches.py" line="106"/>
        <source>Save search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/saved_searches.py" line="106"/>
        <source>Name of this search:</source>
        <translation>此搜索的名称：</translation>
    </message>
</context>
<context>
    <name>ScanDialog</name>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="92"/>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="108"/>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="94"/>
        <source>A scanner found, or an eSCL address: http://HOST:PORT/eSCL</source>
        <translation>已找到的扫描仪，或 eSCL 地址：http://HOST:PORT/eSCL</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="97"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="101"/>
        <source>Both sides (duplex); blank back sides are dropped</source>
        <translation>双面（双工）；空白背面将被丢弃</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="102"/>
        <source>No preview</source>
        <translation>无预览</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="104"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="110"/>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="158"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="116"/>
        <source>Scanner</source>
        <translation>扫描仪</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="117"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="119"/>
        <source>Resolution</source>
        <translation>分辨率</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="120"/>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="197"/>
        <source>Colour</source>
        <translation>彩色</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="158"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="165"/>
        <source>Looking for scanners...</source>
        <translation>正在查找扫描仪...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="180"/>
        <source>No scanner found; type a network scanner&apos;s address (http://HOST/eSCL)</source>
        <translation>未找到扫描仪；请输入网络扫描仪地址（http://HOST/eSCL）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="196"/>
        <source>Flatbed</source>
        <translation>平板</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="196"/>
        <source>Document feeder</source>
        <translation>自动进纸器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="197"/>
        <source>Grey</source>
        <translation>灰度</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="197"/>
        <source>Black and white</source>
        <translation>黑白</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="213"/>
        <source>Previewing...</source>
        <translation>正在预览...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="239"/>
        <source>Scanning page 1...</source>
        <translation>正在扫描第 1 页...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="245"/>
        <source>Cancelling...</source>
        <translation>正在取消...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="272"/>
        <source>Scanning page {0}...</source>
        <translation>正在扫描第 {0} 页...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="276"/>
        <source>Blank back side dropped ({0} so far)</source>
        <translation>已丢弃空白背面（目前共 {0} 张）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="284"/>
        <source>{0} pages scanned, {1} blank back sides dropped</source>
        <translation>已扫描 {0} 页，丢弃 {1} 张空白背面</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="287"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/scan_dialog.py" line="290"/>
        <source>The pages scanned before are kept and will be read.</source>
        <translation>之前扫描的页面会保留并被识别。</translation>
    </message>
</context>
<context>
    <name>ScreenRegionCapture</name>
    <message>
        <location filename="../../scanner_app/gui/capture/screen.py" line="158"/>
        <source>The screen could not be captured (the desktop does not allow it)</source>
        <translation>无法截取屏幕（桌面环境不允许）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/capture/screen.py" line="189"/>
        <source>The screen region could not be saved: {error}</source>
        <translation>无法保存屏幕区域：{error}</translation>
    </message>
</context>
<context>
    <name>SearchBar</name>
    <message>
        <location filename="../../scanner_app/gui/library/search_bar.py" line="30"/>
        <source>Search the receipts: words, parts of numbers, 咖啡...</source>
        <translation>搜索收据：词语、数字片段、咖啡...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/library/search_bar.py" line="33"/>
        <source>Filters</source>
        <translation>筛选</translation>
    </message>
</context>
<context>
    <name>ServerConnection</name>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="75"/>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="140"/>
        <source>No server configured (see the Server tab)</source>
        <translation>未配置服务器（请查看“服务器”标签页）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="179"/>
        <source>Starting the embedded Triton server...</source>
        <translation>正在启动内置 Triton 服务器...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="190"/>
        <source>Stopping the embedded server...</source>
        <translation>正在停止内置服务器...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="210"/>
        <source>Disconnected</source>
        <translation>已断开</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="249"/>
        <source>Embedded Triton unhealthy: {0}</source>
        <translation>内置 Triton 服务器状态异常：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="251"/>
        <source>Embedded Triton reloaded a model: {0}</source>
        <translation>内置 Triton 服务器已重新加载一个模型：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="252"/>
        <source>Embedded Triton could not reload a model: {0}</source>
        <translation>内置 Triton 服务器无法重新加载模型：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="257"/>
        <source>Embedded Triton unhealthy, restarting: {0}</source>
        <translation>内置 Triton 服务器状态异常，正在重启：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="263"/>
        <source>Embedded Triton restarted on {0}: {1}</source>
        <translation>内置 Triton 服务器已在 {0} 上重启：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="279"/>
        <source>Connecting to {0}...</source>
        <translation>正在连接 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="309"/>
        <source>Embedded Triton started on {0} (version {1})</source>
        <translation>内置 Triton 已在 {0} 启动（版本 {1}）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="311"/>
        <source>Connected to Triton {0} at {1}</source>
        <translation>已连接到 {1} 上的 Triton {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="313"/>
        <source> - down: {0}</source>
        <translation> - 不可用：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="330"/>
        <source>Server {0} is down: {1}</source>
        <translation>服务器 {0} 不可用：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="331"/>
        <source>Server {0}: {1}</source>
        <translation>服务器 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="345"/>
        <source>The embedded server could not start: {0}</source>
        <translation>内置服务器无法启动：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="356"/>
        <source>Stopping the embedded server failed: {0}</source>
        <translation>停止内置服务器失败：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/connection/link.py" line="362"/>
        <source>Embedded server stopped</source>
        <translation>内置服务器已停止</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="73"/>
        <source>Endpoints</source>
        <translation>端点</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="75"/>
        <source>Triton gRPC endpoints, one per line (host:port). Leave empty to use the embedded server.</source>
        <translation>Triton gRPC 端点，每行一个（主机:端口）。留空则使用内置服务器。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="84"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="86"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="97"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="122"/>
        <source>Embedded server</source>
        <translation>内置服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="125"/>
        <source>Start embedded server</source>
        <translation>启动内置服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="127"/>
        <source>Stop embedded server</source>
        <translation>停止内置服务器</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="147"/>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="156"/>
        <source>Applied.</source>
        <translation>已应用。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="164"/>
        <source>No endpoint to test: enter one, or start the embedded server.</source>
        <translation>没有可测试的端点：请输入一个，或启动内置服务器。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="173"/>
        <source>Testing {0}...</source>
        <translation>正在测试 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="181"/>
        <source>Test failed: {0}</source>
        <translation>测试失败：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="185"/>
        <source>{0} of {1} endpoints serve the OCR pipeline.</source>
        <translation>{1} 个端点中有 {0} 个提供 OCR 流水线。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="187"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="187"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="190"/>
        <source>{0}: live {1}, ready {2}</source>
        <translation>{0}：存活 {1}，就绪 {2}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="193"/>
        <source>, Triton {0}</source>
        <translation>，Triton {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/panel.py" line="205"/>
        <source>Server version: {0}</source>
        <translation>服务器版本：{0}</translation>
    </message>
</context>
<context>
    <name>ShortcutsPage</name>
    <message>
        <location filename="../../scanner_app/gui/window/shortcuts_page.py" line="26"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/shortcuts_page.py" line="28"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/window/shortcuts_page.py" line="28"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>StressController</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/controller.py" line="107"/>
        <source> (stopped)</source>
        <translation>（已停止）</translation>
    </message>
</context>
<context>
    <name>StressDashboard</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="48"/>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="200"/>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="54"/>
        <source>Export CSV (perf_analyzer)...</source>
        <translation>导出 CSV（perf_analyzer 格式）...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="55"/>
        <source>Export JSON...</source>
        <translation>导出 JSON...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="56"/>
        <source>Clear runs</source>
        <translation>清除运行记录</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="133"/>
        <source>The server is not ready: {0}</source>
        <translation>服务器未就绪：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="145"/>
        <source>The demo needs a ready Triton server: {0}</source>
        <translation>演示需要就绪的 Triton 服务器：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="155"/>
        <source>A run is in progress; stop it first.</source>
        <translation>有运行正在进行，请先停止。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="195"/>
        <source>Preparing images: {0}...</source>
        <translation>正在准备图片：{0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="196"/>
        <source>Starting the baseline server...</source>
        <translation>正在启动基线服务器...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="197"/>
        <source>Taking golden results at concurrency 1 ({0})...</source>
        <translation>正在以并发 1 获取基准结果（{0}）...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="198"/>
        <source>Running {0}</source>
        <translation>正在运行 {0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="199"/>
        <source>Stopping...</source>
        <translation>正在停止...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="221"/>
        <source>warming up</source>
        <translation>预热中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="221"/>
        <source>measuring</source>
        <translation>测量中</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="222"/>
        <source>Running {0}: {1}, {2} responses, {3:.0f} s</source>
        <translation>正在运行 {0}：{1}，{2} 个响应，{3:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="240"/>
        <source>The run failed: {0}</source>
        <translation>运行失败：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="265"/>
        <source>No finished run to export yet.</source>
        <translation>尚无已完成的运行可导出。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="267"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="267"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="268"/>
        <source>Export runs</source>
        <translation>导出运行记录</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="274"/>
        <source>Could not export to {0}: {1}</source>
        <translation>无法导出到 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/dashboard/dashboard.py" line="276"/>
        <source>Exported to {0}</source>
        <translation>已导出到 {0}</translation>
    </message>
</context>
<context>
    <name>TlsFields</name>
    <message>
        <location filename="../../scanner_app/gui/server/tls_fields.py" line="20"/>
        <source>CA certificate (PEM):</source>
        <translation>CA 证书（PEM）：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/tls_fields.py" line="21"/>
        <source>Client certificate (PEM):</source>
        <translation>客户端证书（PEM）：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/tls_fields.py" line="22"/>
        <source>Client key (PEM):</source>
        <translation>客户端私钥（PEM）：</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/tls_fields.py" line="26"/>
        <source>none (plain gRPC unless a file is set)</source>
        <translation>无（未设置文件时使用明文 gRPC）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/tls_fields.py" line="27"/>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/tls_fields.py" line="38"/>
        <source>Choose a PEM file</source>
        <translation>选择 PEM 文件</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/server/tls_fields.py" line="37"/>
        <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
        <translation>PEM 文件 (*.pem *.crt *.key);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <location filename="../../scanner_app/gui/units.py" line="10"/>
        <source>{0:.2f} images/s</source>
        <translation>{0:.2f} 张图像/秒</translation>
    </message>
</context>
<context>
    <name>ViewerPanel</name>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="85"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="85"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="85"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="86"/>
        <source>100%</source>
        <translation>100%</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="86"/>
        <source>Rotate left</source>
        <translation>向左旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="87"/>
        <source>Rotate right</source>
        <translation>向右旋转</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="87"/>
        <source>Boxes</source>
        <translation>文本框</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="88"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="88"/>
        <source>Scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="88"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="89"/>
        <source>Upright</source>
        <translation>摆正</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="91"/>
        <source>Text from the document itself, not OCR</source>
        <translation>文字取自文档本身，不是 OCR 识别</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/viewer/panel.py" line="93"/>
        <source>This page&apos;s text was read exactly from the PDF&apos;s text layer or the e-invoice&apos;s data, not recognised by the server. File &gt; Always OCR PDF pages changes this.</source>
        <translation>此页文字是从 PDF 文本层或电子发票数据中精确读取的，不是由服务器识别的。可通过“文件 &gt; 始终对 PDF 页面做 OCR”更改。</translation>
    </message>
</context>
<context>
    <name>WatchBar</name>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="68"/>
        <source>Watch a folder...</source>
        <translation>监视文件夹...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="69"/>
        <source>Read every image or PDF that appears in a folder, once (a copier&apos;s scan-to-folder)</source>
        <translation>读取文件夹中出现的每个图像或 PDF，各一次（复印机的“扫描到文件夹”）</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="72"/>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="74"/>
        <source>Not watching a folder.</source>
        <translation>未监视文件夹。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="95"/>
        <source>Cannot watch {0}: {1}</source>
        <translation>无法监视 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="98"/>
        <source>Starting to watch {0}...</source>
        <translation>开始监视 {0}...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="108"/>
        <source>Stopping: waiting for the pages in flight...</source>
        <translation>正在停止：等待处理中的页面...</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="120"/>
        <source>Folder to watch</source>
        <translation>要监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="124"/>
        <source>Where the results go</source>
        <translation>结果保存位置</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="134"/>
        <source>Cannot watch: {0}</source>
        <translation>无法监视：{0}</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="143"/>
        <source>Stopped watching {0}: {1} read, {2} failed.</source>
        <translation>已停止监视 {0}：已读取 {1} 个，失败 {2} 个。</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="155"/>
        <source>Watching {0} ({1}): {2} read, {3} failed, {4} read before</source>
        <translation>正在监视 {0}（{1}）：已读取 {2} 个，失败 {3} 个，之前已读取 {4} 个</translation>
    </message>
    <message>
        <location filename="../../scanner_app/gui/batch/watch_bar.py" line="158"/>
        <source>, {0} skipped</source>
        <translation>，跳过 {0} 个</translation>
    </message>
</context>
<context>
    <name>_000.self</name>
    <message>
        <location filename="../../scanner_app/gui/dashboard/run_form.py" line="69"/>
        <source> images/s</source>
        <translation> 张/秒</translation>
    </message>
</context>
</TS>
